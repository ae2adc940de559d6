import type { Db } from "@/lib/foundation/db/types";
import { settleBilledBatch, type BilledBatch } from "./settle-batch";

type Outcome = "completed" | "failed";
type BatchRow = BilledBatch & { status: "queued" | "running" | "completed" | "failed" };

/**
 * What a batch product tells endBilledBatch about its own tables; the order of
 * the work and the money are the skeleton's.
 */
export type BatchTables<Row extends BatchRow> = {
  /** The batch row, locked for update (undefined: not this account's, or never committed). */
  lock: (tx: Db) => Promise<Row | undefined>;
  /** Fails the files still pending: whatever is pending now will never be processed. */
  failPending: (tx: Db, batch: Row) => Promise<void>;
  /** The charged files that failed: what the refund covers. */
  countFailed: (tx: Db, batch: Row) => Promise<number>;
  /** Writes the settled columns to the batch row; the row as it now is. */
  write: (tx: Db, batch: Row, settled: Awaited<ReturnType<typeof settleBilledBatch>>) => Promise<Row>;
  /** Tells the account's webhooks (`<product>.completed` or `.failed`), in the same transaction. */
  announce: (tx: Db, ended: Row, outcome: Outcome) => Promise<unknown>;
  refundReason: (batch: Row, failedFiles: number) => string;
  /** The error message of a batch failed without one. */
  genericFailure: string;
};

/**
 * Ends a batch billed by one debit (Face Crop tasks, match jobs): the pending
 * files are failed, and the charged files that failed are refunded together by
 * one refund of the batch's debit (settleBilledBatch), in one transaction with
 * the batch row locked. Idempotent: a batch already ended is returned as it is,
 * and the ledger allows one refund per debit. Null when there is no such batch.
 */
export async function endBilledBatch<Row extends BatchRow>(db: Db, tables: BatchTables<Row>, input: { outcome: Outcome; message?: string }): Promise<Row | null> {
  return db.transaction(async (tx) => {
    const batch = await tables.lock(tx);
    if (!batch) return null;
    if (batch.status === "completed" || batch.status === "failed") return batch;
    await tables.failPending(tx, batch);
    const failedFiles = await tables.countFailed(tx, batch);
    const settled = await settleBilledBatch(tx, batch, {
      outcome: input.outcome,
      message: input.message,
      failedFiles,
      refundReason: tables.refundReason(batch, failedFiles),
      genericFailure: tables.genericFailure,
    });
    const ended = await tables.write(tx, batch, settled);
    await tables.announce(tx, ended, input.outcome);
    return ended;
  });
}
