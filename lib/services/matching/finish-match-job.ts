import { and, count, eq } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { matchFiles, matchJobs } from "@/lib/foundation/db/schema";
import { endBilledBatch } from "@/lib/services/billed-batch/end-batch";
import { emitWebhookEvent } from "@/lib/domain/webhooks/emit";
import { MATCH_GENERIC_FAILURE } from "./job-errors";
import { toPublicMatchJob } from "./match-job-status";

export const INTERRUPTED = { code: "PROCESSING_FAILED", message: "The match job stopped before this photo was matched; it was not charged. Match it again." };

/**
 * Ends a match job: photos still pending are failed, and every failed photo is
 * refunded together (endBilledBatch). Idempotent: a job already ended is
 * returned as it is.
 */
export async function finishMatchJob(db: Db, input: { matchJobId: number; accountId: string; outcome: "completed" | "failed"; message?: string }) {
  return endBilledBatch(
    db,
    {
      lock: async (tx) => (await tx.select().from(matchJobs).where(and(eq(matchJobs.id, input.matchJobId), eq(matchJobs.accountId, input.accountId))).for("update"))[0],
      failPending: async (tx, job) => {
        await tx
          .update(matchFiles)
          .set({ status: "failed", errorCode: INTERRUPTED.code, errorMessage: INTERRUPTED.message, completedAt: new Date() })
          .where(and(eq(matchFiles.matchJobId, job.id), eq(matchFiles.status, "pending")));
      },
      countFailed: async (tx, job) => {
        const [failed] = await tx.select({ n: count() }).from(matchFiles).where(and(eq(matchFiles.matchJobId, job.id), eq(matchFiles.status, "failed")));
        return failed?.n ?? 0;
      },
      write: async (tx, job, settled) => (await tx.update(matchJobs).set(settled).where(eq(matchJobs.id, job.id)).returning())[0]!,
      announce: (tx, ended, outcome) => emitWebhookEvent(tx, { accountId: ended.accountId, type: `match_job.${outcome}`, data: (sp) => toPublicMatchJob(sp, ended) }),
      refundReason: (job, failedFiles) => `Match job ${job.id}: ${failedFiles} of ${job.totalFiles} photos could not be matched`,
      genericFailure: MATCH_GENERIC_FAILURE,
    },
    input,
  );
}
