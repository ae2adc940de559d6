import type { Db } from "@/lib/foundation/db/types";
import { refundDebit } from "@/lib/domain/wallet/refund-debit";

/** What a job billed by one debit carries (background removal, AI fix jobs). */
type ChargedJob = { accountId: string; status: string; walletTransactionId: string };

/**
 * What a single-charge product tells endWithRefund about its own table; the
 * order of the work and the money are the helper's.
 */
export type ChargedJobTable<Row extends ChargedJob> = {
  /** The job row, locked for update (undefined: not this account's, or never committed). */
  lock: (tx: Db) => Promise<Row | undefined>;
  /** The statuses of a job already ended without a result: it is not marked again, only its refund is made sure of. */
  ended: readonly Row["status"][];
  /** Writes the end (failed with its message, rejected ...) to the row, in the same transaction. */
  mark: (tx: Db, job: Row) => Promise<unknown>;
  /** The refund's note in the ledger. */
  refundReason: (job: Row) => string;
};

/**
 * Ends a job billed by one debit that did not deliver: marks it (once) and
 * refunds its whole debit, in the caller's transaction. Idempotent: a second
 * call finds it ended and the refund made (the ledger allows one refund per
 * debit). A completed job is left alone: a late failure never refunds a
 * delivered result. `newlyEnded` says whether this call ended it.
 */
export async function endWithRefund<Row extends ChargedJob>(tx: Db, table: ChargedJobTable<Row>) {
  const job = await table.lock(tx);
  if (!job) return { found: false, refunded: false, newlyEnded: false, job: null };
  if (job.status === "completed") return { found: true, refunded: false, newlyEnded: false, job };
  const newlyEnded = !table.ended.includes(job.status);
  if (newlyEnded) await table.mark(tx, job);
  const refund = await refundDebit(tx, { accountId: job.accountId, debitId: job.walletTransactionId, reason: table.refundReason(job) });
  return { found: true, refunded: refund.refunded, newlyEnded, job };
}
