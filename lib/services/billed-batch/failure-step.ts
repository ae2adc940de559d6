import { getDb } from "@/lib/foundation/db/client";
import type { Db } from "@/lib/foundation/db/types";
import type { SerializedError } from "@/lib/domain/jobs/job-errors";
import type { FailureContext } from "@/lib/domain/jobs/types";

/**
 * The failure handler of a billed job (a batch here, a single charge in
 * lib/services/billed-job): one step that ends the work as failed with the
 * message its product gives the error (a `failureMessageFor`, so the runtime's
 * own errors are worded alike everywhere) and refunds what was not delivered.
 * `end` must be idempotent: a failure handler can run more than once.
 */
export function failureStep<D>(stepId: string, failureMessage: (error: SerializedError) => string, end: (db: Db, data: D, message: string) => Promise<unknown>) {
  return async ({ event, error, step }: FailureContext<D>): Promise<void> => {
    await step.run(stepId, async () => end(await getDb(), event.data, failureMessage(error)));
  };
}
