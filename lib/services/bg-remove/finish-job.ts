import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { bgRemoveJobs, type BgRemoveQuality } from "@/lib/foundation/db/schema";
import { endWithRefund } from "@/lib/services/billed-job/end-with-refund";
import { storage } from "@/lib/domain/storage";
import { emitWebhookEvent } from "@/lib/domain/webhooks/emit";
import { getBgRemoveJob } from "./get-bg-remove-job";
import { sourceCopyKey } from "./storage-keys";

/**
 * processing -> completed. Conditional on the status, so a completion that
 * races the failure handler (a job abandoned at its time limit) changes nothing.
 */
export async function completeBgRemoveJob(
  db: Db,
  jobId: string,
  output: { key: string; width: number; height: number; provider: string; quality?: BgRemoveQuality },
): Promise<boolean> {
  const rows = await db
    .update(bgRemoveJobs)
    .set({ status: "completed", outputKey: output.key, outputWidth: output.width, outputHeight: output.height, provider: output.provider, quality: output.quality ?? null, completedAt: new Date() })
    .where(and(eq(bgRemoveJobs.id, jobId), inArray(bgRemoveJobs.status, ["pending", "processing"])))
    .returning({ id: bgRemoveJobs.id, accountId: bgRemoveJobs.accountId });
  const done = rows[0];
  if (done) await emitWebhookEvent(db, { accountId: done.accountId, type: "bg_removal.completed", data: (tx) => getBgRemoveJob(tx, done.accountId, jobId) });
  return rows.length > 0;
}

/**
 * The failure handler's work: mark the job failed with a message for people and
 * refund its debit, in one transaction (endWithRefund: once, and never for a
 * completed job). The source copy goes, and the account hears of a job that
 * this call failed.
 */
export async function failBgRemoveJob(db: Db, input: { jobId: string; accountId: string; message: string }) {
  const result = await db.transaction((tx) =>
    endWithRefund(tx, {
      lock: async (tx) =>
        (await tx.select().from(bgRemoveJobs).where(and(eq(bgRemoveJobs.id, input.jobId), eq(bgRemoveJobs.accountId, input.accountId))).for("update"))[0],
      ended: ["failed"],
      mark: (tx, job) => tx.update(bgRemoveJobs).set({ status: "failed", errorMessage: input.message, failedAt: new Date() }).where(eq(bgRemoveJobs.id, job.id)),
      refundReason: (job) => `Background removal ${job.id} failed: ${job.errorMessage ?? input.message}`,
    }),
  );
  // A copied source is no longer needed (our own uploads are never copied, so never deleted here).
  if (result.found) await storage().delete(sourceCopyKey(input.accountId, input.jobId)).catch(() => {});
  if (result.newlyEnded) await emitWebhookEvent(db, { accountId: input.accountId, type: "bg_removal.failed", data: (tx) => getBgRemoveJob(tx, input.accountId, input.jobId) });
  return { found: result.found, refunded: result.refunded };
}
