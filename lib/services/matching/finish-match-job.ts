import { and, count, eq } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { matchFiles, matchJobs } from "@/lib/foundation/db/schema";
import { settleBilledBatch } from "@/lib/services/billed-batch/settle-batch";
import { emitWebhookEvent } from "@/lib/domain/webhooks/emit";
import { toPublicMatchJob } from "./match-job-status";

export const INTERRUPTED = { code: "PROCESSING_FAILED", message: "The match job stopped before this photo was matched; it was not charged. Match it again." };

/**
 * Ends a match job: photos still pending are failed (when the job failed), and
 * every failed photo is refunded together (settleBilledBatch). Idempotent: a job
 * already ended is returned as it is.
 */
export async function finishMatchJob(db: Db, input: { matchJobId: number; accountId: string; outcome: "completed" | "failed"; message?: string }) {
  return db.transaction(async (tx) => {
    const [job] = await tx
      .select()
      .from(matchJobs)
      .where(and(eq(matchJobs.id, input.matchJobId), eq(matchJobs.accountId, input.accountId)))
      .for("update");
    if (!job) return null;
    if (job.status === "completed" || job.status === "failed") return job;
    await tx
      .update(matchFiles)
      .set({ status: "failed", errorCode: INTERRUPTED.code, errorMessage: INTERRUPTED.message, completedAt: new Date() })
      .where(and(eq(matchFiles.matchJobId, job.id), eq(matchFiles.status, "pending")));
    const [failed] = await tx.select({ n: count() }).from(matchFiles).where(and(eq(matchFiles.matchJobId, job.id), eq(matchFiles.status, "failed")));
    const failedFiles = failed?.n ?? 0;
    const [ended] = await tx
      .update(matchJobs)
      .set(
        await settleBilledBatch(tx, job, {
          outcome: input.outcome,
          message: input.message,
          failedFiles,
          refundReason: `Match job ${job.id}: ${failedFiles} of ${job.totalFiles} photos could not be matched`,
          genericFailure: "The match job stopped because of an error on our side.",
        }),
      )
      .where(eq(matchJobs.id, job.id))
      .returning();
    await emitWebhookEvent(tx, { accountId: job.accountId, type: `match_job.${input.outcome}`, data: (sp) => toPublicMatchJob(sp, ended!) });
    return ended!;
  });
}
