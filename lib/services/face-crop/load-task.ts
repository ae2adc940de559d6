import { and, asc, eq } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { faceCropItems, faceCropTasks } from "@/lib/foundation/db/schema";

/** A task as its job works on it: what cropping needs and its files' ids in upload order; null when it is not this account's. */
export async function loadCropTask(db: Db, taskId: string, accountId: string) {
  const [row] = await db
    .select()
    .from(faceCropTasks)
    .where(and(eq(faceCropTasks.id, taskId), eq(faceCropTasks.accountId, accountId)));
  if (!row) return null;
  const items = await db.select({ id: faceCropItems.id }).from(faceCropItems).where(eq(faceCropItems.taskId, row.id)).orderBy(asc(faceCropItems.position));
  return { id: row.id, accountId: row.accountId, status: row.status, icpType: row.icpType, enhance: row.enhance, itemIds: items.map((i) => i.id) };
}

/** queued -> running (a task already past queued is left as it is). */
export async function markCropTaskRunning(db: Db, taskId: string) {
  await db.update(faceCropTasks).set({ status: "running" }).where(and(eq(faceCropTasks.id, taskId), eq(faceCropTasks.status, "queued")));
}
