import { and, count, eq } from "drizzle-orm";
import type { Db } from "@/lib/db/types";
import { matchFiles, matchJobs } from "@/lib/db/schema";
import { refundDebit } from "@/lib/wallet/refund-debit";
import { emitWebhookEvent } from "@/lib/webhooks/emit";
import { toPublicMatchJob } from "./match-job-status";

export const INTERRUPTED = { code: "PROCESSING_FAILED", message: "The match job stopped before this photo was matched; it was not charged. Match it again." };

/**
 * Ends a match job: photos still pending are failed (when the job failed), and
 * every failed photo is refunded by one refund row referencing the job's debit
 * (one refund per debit, so a retried or racing finish refunds at most once).
 * Idempotent: a job already ended is returned as it is.
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
    const amount = (failed?.n ?? 0) * job.pricePerFile;
    let refund: { refunded: boolean; transactionId?: string } = { refunded: false };
    if (amount > 0) {
      refund = await refundDebit(tx, {
        accountId: job.accountId,
        debitId: job.walletTransactionId,
        amount,
        reason: `Match job ${job.id}: ${failed!.n} of ${job.totalFiles} photos could not be matched`,
      });
    }
    const [ended] = await tx
      .update(matchJobs)
      .set({
        status: input.outcome,
        processedFiles: job.totalFiles,
        tokensRefunded: refund.refunded ? amount : job.tokensRefunded,
        refundTransactionId: refund.transactionId ?? job.refundTransactionId,
        errorMessage: input.outcome === "failed" ? (input.message ?? "The match job stopped because of an error on our side.") : null,
        completedAt: new Date(),
      })
      .where(eq(matchJobs.id, job.id))
      .returning();
    await emitWebhookEvent(tx, { accountId: job.accountId, type: `match_job.${input.outcome}`, data: (sp) => toPublicMatchJob(sp, ended!) });
    return ended!;
  });
}
