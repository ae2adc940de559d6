import type { z } from "zod";
import { getDb } from "@/lib/foundation/db/client";
import type { Db } from "@/lib/foundation/db/types";
import { defineJob } from "@/lib/domain/jobs/define-job";
import type { EventSchema, JobEventType } from "@/lib/domain/jobs/types";

/**
 * A job that makes one attempt of a delivery that backs off on its own (an
 * email of the outbox, a webhook delivery): `attempt` records its outcome and,
 * while its retry schedule lasts, queues the next attempt as a delayed job, the
 * same on the embedded runner and on Inngest. The job's own retries only cover
 * a crash before the attempt was recorded. Nothing to undo on failure: the
 * record stays as its attempt left it, and the hourly sweep queues a lost one again.
 */
export function deliveryAttemptJob<N extends string, S extends EventSchema>(def: {
  id: string;
  name: string;
  event: JobEventType<N, S>;
  attempt: (db: Db, data: z.output<S>) => Promise<string>;
}) {
  return defineJob({
    id: def.id,
    name: def.name,
    event: def.event,
    retries: 2,
    timeoutMs: 5 * 60_000,
    concurrency: 4,
    handler: async ({ event, step }) => {
      const outcome = await step.run("attempt", async () => def.attempt(await getDb(), event.data));
      return { outcome };
    },
    onFailure: async () => {},
  });
}
