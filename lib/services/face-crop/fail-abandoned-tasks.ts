import { and, eq, lt } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { faceCropTasks } from "@/lib/foundation/db/schema";
import { finishTask } from "./finish-task";

/** A batch cropped while the caller waits takes seconds; one still running after this was abandoned. */
export const SYNC_ABANDONED_AFTER_MS = 30 * 60_000;

/**
 * Ends the sync tasks whose process died mid-request (they have no job to do it):
 * what was not cropped is failed and refunded. Async tasks are the job runner's.
 */
export async function failAbandonedTasks(db: Db, now = new Date()): Promise<number> {
  const stale = await db
    .select({ id: faceCropTasks.id, accountId: faceCropTasks.accountId })
    .from(faceCropTasks)
    .where(and(eq(faceCropTasks.mode, "sync"), eq(faceCropTasks.status, "running"), lt(faceCropTasks.createdAt, new Date(now.getTime() - SYNC_ABANDONED_AFTER_MS))));
  for (const t of stale) {
    await finishTask(db, { taskId: t.id, accountId: t.accountId, outcome: "failed", message: "The batch was interrupted by a server restart; the photos not cropped were refunded." });
  }
  return stale.length;
}
