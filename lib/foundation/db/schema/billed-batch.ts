import { integer, text, timestamp } from "drizzle-orm/pg-core";

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/**
 * The columns of a batch billed by one debit and refunded, once, for the files that
 * fail (Face Crop tasks, match jobs). A function: every table needs its own column
 * builders. lib/services/billed-batch ends such a batch.
 */
export function billedBatchColumns() {
  return {
    /** queued, running, completed, failed (contract 3). */
    status: text("status").$type<"queued" | "running" | "completed" | "failed">().notNull(),
    totalFiles: integer("total_files").notNull(),
    processedFiles: integer("processed_files").notNull().default(0),
    pricePerFile: integer("price_per_file").notNull(),
    /** What the debit took at acceptance (accepted files × price). */
    tokensDebited: integer("tokens_debited").notNull(),
    /** The debit's ledger id (`wtx_...`). */
    walletTransactionId: text("wallet_transaction_id").notNull(),
    tokensRefunded: integer("tokens_refunded").notNull().default(0),
    refundTransactionId: text("refund_transaction_id"),
    errorMessage: text("error_message"),
    createdAt: ts("created_at").notNull().defaultNow(),
    completedAt: ts("completed_at"),
  };
}
