import type { z } from "zod";
import { getDb } from "@/lib/foundation/db/client";
import type { Db } from "@/lib/foundation/db/types";
import type { SerializedError } from "@/lib/domain/jobs/job-errors";
import type { EventSchema, JobContext, JobEventType, JobStep } from "@/lib/domain/jobs/types";
import { failureStep } from "./failure-step";

type Outcome = "completed" | "failed";
type Id = string | number;

/**
 * A batch job as its product describes it: how to load, start, work through and
 * end its record. The step ids are stored with every run in flight (a restarted
 * run resumes after the last finished step by its id), so a job keeps its own.
 */
export type BatchJobSpec<D, B extends { status: string }, I extends Id> = {
  steps: { load: string; start?: string; each: string; finish: string; fail: string };
  /** The record and the ids of its items in order, as plain JSON (a step's value is stored); null when it is not there. */
  load: (db: Db, data: D) => Promise<B | null>;
  /**
   * Said when the record is not there. The attempt fails and is retried: with
   * Inngest the event is sent just before the record's transaction commits. A
   * transaction that rolled back leaves the failure handler nothing to end.
   */
  missing: string;
  items: (batch: B) => readonly I[];
  /** Items per step: a restart redoes at most this many. */
  perStep: number;
  /** queued -> running, when the product marks it in a step of its own. */
  start?: (db: Db, batch: B) => Promise<unknown>;
  /** One step's items: each recorded as it is done, so a retried step skips what it finished. */
  each: (db: Db, batch: B, ids: I[], signal: AbortSignal) => Promise<unknown>;
  /** Ends the record (and settles its bill); idempotent, null when it is not there. */
  finish: (db: Db, data: D, outcome: Outcome, message?: string) => Promise<{ status: string; tokensRefunded?: number } | null>;
  /** The error message of a failed batch, from the error that ended its last attempt (a `failureMessageFor`). */
  failureMessage: (error: SerializedError) => string;
  /** More steps once the batch is completed (its results are final by then). */
  afterFinish?: (ctx: { step: JobStep; batch: B; signal: AbortSignal }) => Promise<void>;
};

/** Runs `fn` over `ids` in steps of `perStep`, named `<prefix>-<offset>`. */
export async function inSteps<T extends Id>(step: JobStep, prefix: string, ids: readonly T[], perStep: number, fn: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let at = 0; at < ids.length; at += perStep) {
    const chunk = ids.slice(at, at + perStep);
    await step.run(`${prefix}-${at}`, () => fn(chunk));
  }
}

/**
 * The handler and failure handler of a batch job (Face Crop tasks, match jobs,
 * reference builds, QR sorts): load the record (ending at once when it already
 * ended), mark it started, work through its items in steps, end it; after the
 * last failed attempt, or past the time limit, end it as failed with its
 * product's message, which refunds what was not delivered in the batch's one
 * refund. A free batch is one with nothing to refund. The job file only names
 * the event, retries and limits.
 */
export function batchJob<S extends EventSchema, B extends { status: string }, I extends Id>(event: JobEventType<string, S>, spec: BatchJobSpec<z.output<S>, B, I>) {
  type D = z.output<S>;
  return {
    event,
    handler: async ({ event, step, signal }: JobContext<D>) => {
      const batch = await step.run(spec.steps.load, async () => {
        const found = await spec.load(await getDb(), event.data);
        if (!found) throw new Error(spec.missing);
        return found;
      });
      if (batch.status === "completed" || batch.status === "failed") return { skipped: batch.status };
      if (spec.start) await step.run(spec.steps.start ?? "start", async () => spec.start!(await getDb(), batch));
      await inSteps(step, spec.steps.each, spec.items(batch), spec.perStep, async (ids) => {
        await spec.each(await getDb(), batch, ids, signal);
        return ids.length;
      });
      const ended = await step.run(spec.steps.finish, async () => spec.finish(await getDb(), event.data, "completed"));
      await spec.afterFinish?.({ step, batch, signal });
      return { status: ended?.status, refunded: ended?.tokensRefunded };
    },
    onFailure: failureStep<D>(spec.steps.fail, spec.failureMessage, (db, data, message) => spec.finish(db, data, "failed", message)),
  };
}
