import type { SerializedError } from "@/lib/domain/jobs/job-errors";
import type { Db } from "@/lib/foundation/db/types";
import { failureStep } from "@/lib/services/billed-batch/failure-step";

/**
 * The failure handler of a job billed by one debit: one step, "fail-and-refund",
 * that ends the job as failed with its product's message for the error
 * (a `failureMessageFor`) and refunds the debit once (`fail`, built on
 * endWithRefund). It runs after the last failed attempt or past the time limit.
 */
export function chargedJobFailure<D>(failureMessage: (error: SerializedError) => string, fail: (db: Db, data: D, message: string) => Promise<unknown>) {
  return failureStep<D>("fail-and-refund", failureMessage, fail);
}
