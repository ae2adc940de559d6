import { eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { wallets, walletTransactions } from "@/lib/foundation/db/schema";
import { newId } from "@/lib/foundation/ids";

/** Adds tokens (sign-up bonus, operator grant, purchase). Call inside the caller's transaction when it pays for something else too. */
export async function grantTokens(
  db: Db,
  input: { accountId: string; amount: number; operation: string; reference?: string | null; note?: string | null; type?: "grant" | "purchase"; id?: string },
) {
  if (!Number.isInteger(input.amount) || input.amount <= 0) throw new Error("grant amount must be a positive integer");
  return db.transaction(async (tx) => {
    const [wallet] = await tx
      .update(wallets)
      .set({ balance: sql`${wallets.balance} + ${input.amount}`, updatedAt: new Date() })
      .where(eq(wallets.accountId, input.accountId))
      .returning({ balance: wallets.balance });
    if (!wallet) throw new Error(`no wallet for account ${input.accountId}`);
    const [row] = await tx
      .insert(walletTransactions)
      .values({
        id: input.id ?? newId("wtx"),
        accountId: input.accountId,
        type: input.type ?? "grant",
        amount: input.amount,
        balanceAfter: wallet.balance,
        operation: input.operation,
        reference: input.reference ?? null,
        note: input.note ?? null,
      })
      .returning();
    return row!;
  });
}
