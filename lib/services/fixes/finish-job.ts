import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { fixJobs, type FixRecheckRecord, type FixStepRecord } from "@/lib/foundation/db/schema";
import { storage } from "@/lib/domain/storage";
import { endWithRefund } from "@/lib/services/billed-job/end-with-refund";
import { emitWebhookEvent } from "@/lib/domain/webhooks/emit";
import { getFixJob } from "./get-fix-job";

type Status = (typeof fixJobs.$inferSelect)["status"];

/** Moves a job from one of `from` to `to` (with more fields); false when it was not in `from` (a race with the failure handler). */
export async function moveFixJob(db: Db, jobId: string, from: Status[], to: Status, set: Partial<typeof fixJobs.$inferInsert> = {}): Promise<boolean> {
  const rows = await db
    .update(fixJobs)
    .set({ ...set, status: to })
    .where(and(eq(fixJobs.id, jobId), inArray(fixJobs.status, from)))
    .returning({ id: fixJobs.id });
  return rows.length > 0;
}

export async function completeFixJob(
  db: Db,
  jobId: string,
  result: { outputKey: string; outputMime: string; applied: FixStepRecord[]; flattenedPages: number[] | null; engine: string | null; recheck: FixRecheckRecord },
): Promise<boolean> {
  const moved = await moveFixJob(db, jobId, ["applying"], "completed", {
    outputKey: result.outputKey,
    outputMime: result.outputMime,
    applied: result.applied,
    flattenedPages: result.flattenedPages,
    engine: result.engine,
    recheck: result.recheck,
    completedAt: new Date(),
  });
  const [owner] = moved ? await db.select({ accountId: fixJobs.accountId }).from(fixJobs).where(eq(fixJobs.id, jobId)) : [];
  if (owner) await emitWebhookEvent(db, { accountId: owner.accountId, type: "ai_fix.completed", data: (tx) => getFixJob(tx, owner.accountId, jobId) });
  return moved;
}

/**
 * Ends a job that is not finished: failed (its error for people) or rejected
 * (by its owner), and refunds its debit in the same transaction (endWithRefund:
 * once, and never for a completed job).
 */
export async function endFixJobWithRefund(db: Db, input: { jobId: string; accountId: string; status: "failed" | "rejected"; message: string }) {
  return db.transaction(async (tx) => {
    const ended = await endWithRefund(tx, {
      lock: async (tx) => (await tx.select().from(fixJobs).where(and(eq(fixJobs.id, input.jobId), eq(fixJobs.accountId, input.accountId))).for("update"))[0],
      ended: ["failed", "rejected"],
      mark: async (tx, job) => {
        await tx
          .update(fixJobs)
          .set(input.status === "failed" ? { status: "failed", errorMessage: input.message, failedAt: new Date() } : { status: "rejected", completedAt: null, failedAt: new Date() })
          .where(eq(fixJobs.id, job.id));
        if (input.status === "failed") await emitWebhookEvent(tx, { accountId: job.accountId, type: "ai_fix.failed", data: (sp) => getFixJob(sp, job.accountId, job.id) });
      },
      refundReason: (job) => `AI fix job ${job.id} ${input.status === "failed" ? "failed" : "was rejected"}: ${job.errorMessage ?? input.message}`,
    });
    return { found: ended.found, refunded: ended.refunded, job: ended.job };
  });
}

/**
 * The failure handler's work: the job failed with its message and refunded
 * once; a result it had written (staged or final) goes unless it completed.
 */
export async function failFixJob(db: Db, input: { jobId: string; accountId: string; message: string }) {
  const ended = await endFixJobWithRefund(db, { ...input, status: "failed" });
  if (ended.job?.outputKey && ended.job.status !== "completed") await storage().delete(ended.job.outputKey).catch(() => {});
  return { refunded: ended.refunded };
}
