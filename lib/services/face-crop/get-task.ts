import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { faceCropTasks } from "@/lib/foundation/db/schema";
import { notFound } from "@/lib/foundation/http/api-error";
import { toPublicTask } from "./public-task";

/** Another account's task is indistinguishable from a missing one (404). */
export async function getFaceCropTask(db: Db, accountId: string, taskId: string) {
  const [task] = await db
    .select()
    .from(faceCropTasks)
    .where(and(eq(faceCropTasks.id, taskId), eq(faceCropTasks.accountId, accountId)));
  if (!task) throw notFound("Task");
  return toPublicTask(db, task);
}
