/** Shapes returned by the /v1 wallet endpoints, as the studio pages read them. */

export type Paginated<T> = {
  data: T[];
  links: { first: string | null; last: string | null; prev: string | null; next: string | null };
  meta: { path: string; per_page: number; current_page: number; last_page: number; total: number };
  message: string;
};

export type TransactionType = "grant" | "debit" | "refund";

export type WalletTransaction = {
  id: string;
  type: TransactionType;
  amount: number;
  balance_after: number;
  operation: string;
  reference: string | null;
  note: string | null;
  refund_of?: string;
  created_at: string;
};

export type UsageDay = { date: string; spent: number; granted: number };
