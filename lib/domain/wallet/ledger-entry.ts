import type { walletTransactions } from "@/lib/foundation/db/schema";

type Row = typeof walletTransactions.$inferSelect;

/** Who spent a debit: a studio member (by their login id) or an API key, with the name to show. */
export type SpentBy = { type: "member" | "api_key"; id: string; name: string } | null;

/** The public shape of a ledger row (GET /v1/wallet/transactions, operator grants). */
export function toLedgerEntry(row: Row, spentBy: SpentBy = null) {
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
    /** The member or API key a debit was made by; null for grants, refunds and work no person started. */
    spent_by: spentBy,
    created_at: row.createdAt.toISOString(),
  };
}

export type LedgerEntry = ReturnType<typeof toLedgerEntry>;
