import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { wallets, walletTransactions } from "@/lib/foundation/db/schema";
import { newId } from "@/lib/foundation/ids";
import { emitWebhookEvent } from "@/lib/domain/webhooks/emit";
import { toLedgerEntry } from "./ledger-entry";

/**
 * Returns a debit's tokens, at most once: the refund row's unique `refund_of`
 * makes a second attempt (a retried failure handler, a race) a no-op.
 * `amount` refunds part of a debit (e.g. only the failed files of a batch).
 */
export async function refundDebit(
  db: Db,
  input: { accountId: string; debitId: string; reason: string; amount?: number },
): Promise<{ refunded: boolean; transactionId?: string }> {
  return db.transaction(async (tx) => {
    const [debit] = await tx
      .select()
      .from(walletTransactions)
      .where(and(eq(walletTransactions.id, input.debitId), eq(walletTransactions.accountId, input.accountId), eq(walletTransactions.type, "debit")));
    if (!debit) throw new Error(`debit ${input.debitId} not found for account ${input.accountId}`);
    const amount = input.amount ?? -debit.amount;
    if (!Number.isInteger(amount) || amount <= 0 || amount > -debit.amount) throw new Error("refund amount out of range");

    const id = newId("wtx");
    const inserted = await tx
      .insert(walletTransactions)
      .values({
        id,
        accountId: input.accountId,
        type: "refund",
        amount,
        balanceAfter: 0, // set below, once the balance is known
        operation: debit.operation,
        reference: debit.reference,
        note: input.reason,
        refundOf: debit.id,
      })
      .onConflictDoNothing({ target: walletTransactions.refundOf })
      .returning({ id: walletTransactions.id });
    if (inserted.length === 0) return { refunded: false };

    const [wallet] = await tx
      .update(wallets)
      .set({ balance: sql`${wallets.balance} + ${amount}`, updatedAt: new Date() })
      .where(eq(wallets.accountId, input.accountId))
      .returning({ balance: wallets.balance });
    const [row] = await tx.update(walletTransactions).set({ balanceAfter: wallet!.balance }).where(eq(walletTransactions.id, id)).returning();
    await emitWebhookEvent(tx, { accountId: input.accountId, type: "refund.created", data: toLedgerEntry(row!) });
    return { refunded: true, transactionId: id };
  });
}
