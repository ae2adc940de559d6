import { asc, eq } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { faceCropItems } from "@/lib/foundation/db/schema";
import type { AcceptedTask } from "./accept-task";
import { finishTask } from "./finish-task";
import { processItem } from "./process-item";
import { toSyncBody } from "./public-task";

/**
 * Crops a small batch while the caller waits. An engine failure on one file is
 * that file's error (refunded); anything unexpected ends the task failed, with
 * every file not cropped refunded, before the 500. A process that dies midway
 * leaves the task running: the maintenance sweep ends it and refunds (see
 * failAbandonedTasks).
 */
export async function runSync(db: Db, task: AcceptedTask) {
  const items = await db.select({ id: faceCropItems.id }).from(faceCropItems).where(eq(faceCropItems.taskId, task.id)).orderBy(asc(faceCropItems.position));
  try {
    for (const item of items) await processItem(db, task, item.id, { engineErrors: "record" });
  } catch (err) {
    await finishTask(db, { taskId: task.id, accountId: task.accountId, outcome: "failed" });
    throw err;
  }
  const ended = await finishTask(db, { taskId: task.id, accountId: task.accountId, outcome: "completed" });
  return toSyncBody(db, ended!);
}
