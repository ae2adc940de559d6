import type { walletTransactions } from "@/lib/db/schema";

type Row = typeof walletTransactions.$inferSelect;

/** The public shape of a ledger row (GET /v1/wallet/transactions, operator grants). */
export function toLedgerEntry(row: Row) {
  return {
    id: row.id,
    type: row.type,
    amount: row.amount,
    balance_after: row.balanceAfter,
    operation: row.operation,
    reference: row.reference,
    note: row.note,
    /** The debit a refund gives back; null on grants and debits (always present, like every field). */
    refund_of: row.refundOf ?? null,
    created_at: row.createdAt.toISOString(),
  };
}

export type LedgerEntry = ReturnType<typeof toLedgerEntry>;
