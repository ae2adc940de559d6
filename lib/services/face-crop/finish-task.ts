import { and, count, eq } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { faceCropItems, faceCropTasks } from "@/lib/foundation/db/schema";
import { settleBilledBatch } from "@/lib/services/billed-batch/settle-batch";
import { emitWebhookEvent } from "@/lib/domain/webhooks/emit";
import { getFaceCropTask } from "./get-task";

export const INTERRUPTED = { code: "PROCESSING_FAILED", message: "The batch stopped before this photo was cropped; it was not charged. Upload it again." };

/**
 * Ends a task: every file still pending is failed (when the task failed), and the
 * charged files that failed are refunded together (settleBilledBatch). Idempotent:
 * a task already ended is returned as it is.
 */
export async function finishTask(db: Db, input: { taskId: string; accountId: string; outcome: "completed" | "failed"; message?: string }) {
  return db.transaction(async (tx) => {
    const [task] = await tx
      .select()
      .from(faceCropTasks)
      .where(and(eq(faceCropTasks.id, input.taskId), eq(faceCropTasks.accountId, input.accountId)))
      .for("update");
    if (!task) return null;
    if (task.status === "completed" || task.status === "failed") return task;
    // Whatever is still pending now will never be cropped: failed, so refunded below.
    await tx
      .update(faceCropItems)
      .set({ status: "failed", errorCode: INTERRUPTED.code, errorMessage: INTERRUPTED.message, completedAt: new Date() })
      .where(and(eq(faceCropItems.taskId, task.id), eq(faceCropItems.status, "pending")));
    const [failed] = await tx
      .select({ n: count() })
      .from(faceCropItems)
      .where(and(eq(faceCropItems.taskId, task.id), eq(faceCropItems.status, "failed"), eq(faceCropItems.charged, true)));
    const failedFiles = failed?.n ?? 0;
    const [ended] = await tx
      .update(faceCropTasks)
      .set(
        await settleBilledBatch(tx, task, {
          outcome: input.outcome,
          message: input.message,
          failedFiles,
          refundReason: `Face crop ${task.id}: ${failedFiles} of ${task.totalFiles} files could not be cropped`,
          genericFailure: "The batch stopped because of an error on our side.",
        }),
      )
      .where(eq(faceCropTasks.id, task.id))
      .returning();
    await emitWebhookEvent(tx, { accountId: task.accountId, type: `face_crop.${input.outcome}`, data: (sp) => getFaceCropTask(sp, task.accountId, task.id) });
    return ended!;
  });
}
