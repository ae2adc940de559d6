import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { fixJobs } from "@/lib/foundation/db/schema";
import { ApiError, conflict, notFound } from "@/lib/foundation/http/api-error";
import { startJob } from "@/lib/domain/jobs/start-job";
import { storage } from "@/lib/domain/storage";
import { endFixJobWithRefund } from "./finish-job";
import { getFixJob } from "./get-fix-job";
import type { ApproveFixJobBody } from "./schemas";

function notAwaiting(status: string) {
  return conflict("JOB_NOT_AWAITING_APPROVAL", `The job is ${status}; only a job in awaiting_approval (created with options.review: true) can be approved or rejected, once.`);
}

/**
 * awaiting_approval -> applying, with the approved fix types (all suggestions,
 * or a subset of them), and the job's second half started in the same
 * transaction. A second approval, or one of a rejected or finished job, is a 409.
 */
export async function approveFixJob(db: Db, accountId: string, jobId: string, body: ApproveFixJobBody) {
  await db.transaction(async (tx) => {
    const [job] = await tx
      .select()
      .from(fixJobs)
      .where(and(eq(fixJobs.id, jobId), eq(fixJobs.accountId, accountId)))
      .for("update");
    if (!job) throw notFound("AI fix job");
    if (job.status !== "awaiting_approval") throw notAwaiting(job.status);
    const suggested = (job.suggestions ?? []).filter((s) => !s.skipped).map((s) => s.fixType);
    let approved: string[] | null = null;
    if (body.fixTypes) {
      const unknown = body.fixTypes.find((f) => !suggested.includes(f));
      if (unknown) throw new ApiError(400, "FIX_NOT_SUGGESTED", `${unknown} is not one of this job's suggestions (${suggested.join(", ") || "none"}).`, { field: "fixTypes", fixType: unknown });
      approved = [...new Set(body.fixTypes)];
    }
    await tx.update(fixJobs).set({ status: "applying", approvedFixTypes: approved ?? job.fixTypes }).where(eq(fixJobs.id, job.id));
    await startJob(tx, { name: "ai-fix/job.approved", data: { jobId: job.id, accountId } });
  });
  return getFixJob(db, accountId, jobId);
}

/** awaiting_approval -> rejected, refunded in the same transaction; the staged result is deleted. */
export async function rejectFixJob(db: Db, accountId: string, jobId: string) {
  const current = await getFixJob(db, accountId, jobId);
  if (current.status !== "awaiting_approval") throw notAwaiting(current.status);
  const ended = await db.transaction(async (tx) => {
    const [job] = await tx
      .select()
      .from(fixJobs)
      .where(and(eq(fixJobs.id, jobId), eq(fixJobs.accountId, accountId)))
      .for("update");
    if (!job || job.status !== "awaiting_approval") throw notAwaiting(job?.status ?? "gone");
    return endFixJobWithRefund(tx, { jobId, accountId, status: "rejected", message: "Rejected by its owner." });
  });
  if (ended.job?.outputKey) await storage().delete(ended.job.outputKey).catch(() => {});
  return getFixJob(db, accountId, jobId);
}
