import { and, count, eq } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { faceCropItems, faceCropTasks } from "@/lib/foundation/db/schema";
import { endBilledBatch } from "@/lib/services/billed-batch/end-batch";
import { emitWebhookEvent } from "@/lib/domain/webhooks/emit";
import { getFaceCropTask } from "./get-task";
import { GENERIC_FAILURE } from "./job-errors";

export const INTERRUPTED = { code: "PROCESSING_FAILED", message: "The batch stopped before this photo was cropped; it was not charged. Upload it again." };

/**
 * Ends a task: every file still pending is failed, and the charged files that
 * failed are refunded together (endBilledBatch). Idempotent: a task already
 * ended is returned as it is.
 */
export async function finishTask(db: Db, input: { taskId: string; accountId: string; outcome: "completed" | "failed"; message?: string }) {
  return endBilledBatch(
    db,
    {
      lock: async (tx) =>
        (await tx.select().from(faceCropTasks).where(and(eq(faceCropTasks.id, input.taskId), eq(faceCropTasks.accountId, input.accountId))).for("update"))[0],
      failPending: async (tx, task) => {
        await tx
          .update(faceCropItems)
          .set({ status: "failed", errorCode: INTERRUPTED.code, errorMessage: INTERRUPTED.message, completedAt: new Date() })
          .where(and(eq(faceCropItems.taskId, task.id), eq(faceCropItems.status, "pending")));
      },
      countFailed: async (tx, task) => {
        const [failed] = await tx
          .select({ n: count() })
          .from(faceCropItems)
          .where(and(eq(faceCropItems.taskId, task.id), eq(faceCropItems.status, "failed"), eq(faceCropItems.charged, true)));
        return failed?.n ?? 0;
      },
      write: async (tx, task, settled) => (await tx.update(faceCropTasks).set(settled).where(eq(faceCropTasks.id, task.id)).returning())[0]!,
      announce: (tx, task, outcome) => emitWebhookEvent(tx, { accountId: task.accountId, type: `face_crop.${outcome}`, data: (sp) => getFaceCropTask(sp, task.accountId, task.id) }),
      refundReason: (task, failedFiles) => `Face crop ${task.id}: ${failedFiles} of ${task.totalFiles} files could not be cropped`,
      genericFailure: GENERIC_FAILURE,
    },
    input,
  );
}
