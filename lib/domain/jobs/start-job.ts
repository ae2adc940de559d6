import type { z } from "zod";
import type { EventType } from "inngest";
import type { Db } from "@/lib/foundation/db/types";
import { newId } from "@/lib/foundation/ids";
import { ApiError } from "@/lib/foundation/http/api-error";
import { inngest } from "@/lib/domain/jobs/inngest-client";
import { jobEvents } from "./events";
import { jobsMode } from "./jobs-mode";
import { enqueueRuns } from "./runner/enqueue-runs";
import { wakeJobRunner } from "./runner/runner-instance";
import { jobFunctions } from "./registry";
import type { EventSchema } from "./types";

type Catalogue = (typeof jobEvents)[number];
/** Any event of the catalogue, typed by its schema: `{ name: "bg-remove/job.requested", data: { jobId, accountId } }`. */
export type StartableEvent = Catalogue extends infer E
  ? E extends EventType<infer N, infer S extends EventSchema>
    ? { name: N; data: z.input<S> }
    : never
  : never;

/**
 * The one way domain code starts async work. Call it inside the transaction
 * that debits the wallet and writes the job row, so the three commit together:
 * an accepted job is never lost, and a job that was not accepted is never charged.
 *
 * Embedded runner: inserts one run per function the event triggers, in `tx`.
 * Inngest: sends the event before the transaction commits, so a failed send
 * rolls the debit back. If the commit fails after a successful send, the
 * function finds no job row and ends without effect (see inngest/bg-remove.ts).
 */
export async function startJob(tx: Db, event: StartableEvent, opts: { id?: string; runAt?: number } = {}): Promise<{ eventId: string; runIds: string[] }> {
  const type = jobEvents.find((e) => e.name === event.name);
  if (!type) throw new Error(`Unknown job event ${event.name}: add it to lib/domain/jobs/events.ts`);
  const data = type.schema.parse(event.data);
  const eventId = opts.id ?? newId("evt");
  // A future `runAt` delays the run (Inngest schedules an event whose ts is ahead; the embedded runner's run_after).
  const ts = Math.max(opts.runAt ?? 0, Date.now());

  if (jobsMode() === "inngest") {
    try {
      await inngest.send({ id: eventId, name: event.name, data, ts });
    } catch (err) {
      console.error(`[jobs] could not send ${event.name} to Inngest:`, err);
      throw new ApiError(503, "JOBS_UNAVAILABLE", "The job queue is unreachable right now; nothing was charged. Please retry.", undefined, undefined, {
        "Retry-After": "30",
      });
    }
    return { eventId, runIds: [] };
  }

  const runIds = await enqueueRuns(tx, await jobFunctions(), { id: eventId, name: event.name, data, ts }, opts.runAt && opts.runAt > Date.now() ? new Date(ts) : undefined);
  // The transaction has not committed yet: the runner's next look (now, or its
  // next poll) sees the runs once it has. With PGlite the look waits for the commit.
  setTimeout(wakeJobRunner, 10).unref?.();
  return { eventId, runIds };
}
