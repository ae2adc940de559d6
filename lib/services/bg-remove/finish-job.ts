import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { bgRemoveJobs, type BgRemoveQuality } from "@/lib/foundation/db/schema";
import { refundDebit } from "@/lib/domain/wallet/refund-debit";
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
 * refund its debit, in one transaction. Idempotent: a second call finds the job
 * failed and the refund already made (the ledger allows one refund per debit).
 * A job that completed is left alone.
 */
export async function failBgRemoveJob(db: Db, input: { jobId: string; accountId: string; message: string }) {
  const result = await db.transaction(async (tx) => {
    const [job] = await tx
      .select()
      .from(bgRemoveJobs)
      .where(and(eq(bgRemoveJobs.id, input.jobId), eq(bgRemoveJobs.accountId, input.accountId)))
      .for("update");
    if (!job) return { found: false, refunded: false, newlyFailed: false };
    if (job.status === "completed") return { found: true, refunded: false, newlyFailed: false };
    if (job.status !== "failed") {
      await tx.update(bgRemoveJobs).set({ status: "failed", errorMessage: input.message, failedAt: new Date() }).where(eq(bgRemoveJobs.id, job.id));
    }
    const refund = await refundDebit(tx, {
      accountId: job.accountId,
      debitId: job.walletTransactionId,
      reason: `Background removal ${job.id} failed: ${job.errorMessage ?? input.message}`,
    });
    return { found: true, refunded: refund.refunded, newlyFailed: job.status !== "failed" };
  });
  // A copied source is no longer needed (our own uploads are never copied, so never deleted here).
  if (result.found) await storage().delete(sourceCopyKey(input.accountId, input.jobId)).catch(() => {});
  if (result.newlyFailed) await emitWebhookEvent(db, { accountId: input.accountId, type: "bg_removal.failed", data: (tx) => getBgRemoveJob(tx, input.accountId, input.jobId) });
  return { found: result.found, refunded: result.refunded };
}
