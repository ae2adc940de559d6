import type { Db } from "@/lib/foundation/db/types";
import { jobRuns } from "@/lib/foundation/db/schema";
import { newId } from "@/lib/foundation/ids";
import type { AnyJobDefinition } from "../types";

/**
 * One queued run per definition the event triggers, written with the caller's
 * transaction. Idempotent per (function, event id): starting an event twice
 * creates its runs once.
 */
export async function enqueueRuns(
  tx: Db,
  definitions: readonly AnyJobDefinition[],
  event: { id: string; name: string; data: Record<string, unknown>; ts: number },
  /** Not before this time (a delayed start); default: now. */
  runAfter?: Date,
): Promise<string[]> {
  const targets = definitions.filter((d) => d.event.name === event.name);
  if (targets.length === 0) throw new Error(`No job function is triggered by ${event.name}: register it in inngest/functions.ts`);
  const rows = await tx
    .insert(jobRuns)
    .values(
      targets.map((d) => ({
        id: newId("run"),
        functionId: d.id,
        eventId: event.id,
        eventName: event.name,
        eventData: event.data,
        eventTs: new Date(event.ts),
        maxAttempts: d.retries + 1,
        deadline: new Date(event.ts + d.timeoutMs),
        ...(runAfter ? { runAfter } : {}),
      })),
    )
    .onConflictDoNothing()
    .returning({ id: jobRuns.id });
  return rows.map((r) => r.id);
}
