/** Shapes returned by the /v1 wallet endpoints, as the studio pages read them. */

export type TransactionType = "grant" | "debit" | "refund";

export type WalletTransaction = {
  id: string;
  type: TransactionType;
  amount: number;
  balance_after: number;
  operation: string;
  reference: string | null;
  note: string | null;
  refund_of: string | null;
  created_at: string;
};

export type UsageDay = { date: string; spent: number; granted: number };
