import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { billingCheckouts } from "@/lib/foundation/db/schema";
import { getBalance } from "@/lib/domain/wallet/get-balance";
import { notFound } from "@/lib/foundation/http/api-error";

/** What the top-up page polls after Stripe sends the customer back: credited yet? */
export async function getCheckout(db: Db, accountId: string, sessionId: string) {
  const [row] = await db.select().from(billingCheckouts).where(and(eq(billingCheckouts.id, sessionId), eq(billingCheckouts.accountId, accountId)));
  if (!row) throw notFound("Checkout session");
  return {
    session_id: row.id,
    pack: row.packId,
    tokens: row.tokens,
    amount: row.amount,
    currency: row.currency,
    status: row.status,
    wallet_transaction_id: row.walletTransactionId,
    balance: await getBalance(db, accountId),
    created_at: row.createdAt.toISOString(),
    paid_at: row.paidAt?.toISOString() ?? null,
  };
}
