import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/db/types";
import { billingCheckouts, wallets } from "@/lib/db/schema";
import { notFound } from "@/lib/http/api-error";

/** What the top-up page polls after Stripe sends the customer back: credited yet? */
export async function getCheckout(db: Db, accountId: string, sessionId: string) {
  const [row] = await db.select().from(billingCheckouts).where(and(eq(billingCheckouts.id, sessionId), eq(billingCheckouts.accountId, accountId)));
  if (!row) throw notFound("Checkout session");
  const [wallet] = await db.select({ balance: wallets.balance }).from(wallets).where(eq(wallets.accountId, accountId));
  return {
    session_id: row.id,
    pack: row.packId,
    tokens: row.tokens,
    amount: row.amount,
    currency: row.currency,
    status: row.status,
    wallet_transaction_id: row.walletTransactionId,
    balance: wallet?.balance ?? 0,
    created_at: row.createdAt.toISOString(),
    paid_at: row.paidAt?.toISOString() ?? null,
  };
}
