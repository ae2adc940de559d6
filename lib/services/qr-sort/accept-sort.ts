import { and, asc, eq } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { jobFiles, qrSortFrames, qrSortTasks } from "@/lib/foundation/db/schema";
import { badRequest } from "@/lib/foundation/http/api-error";
import { newId } from "@/lib/foundation/ids";
import { startJob } from "@/lib/domain/jobs/start-job";
import { requireJob } from "@/lib/services/agencies/agency-jobs";
import { MAX_SORT_FILES } from "./limits";

/**
 * POST /v1/services/studio/agencies/{agencyId}/jobs/{jobId}/qr-sort: free.
 * Takes every photo the job holds now; the task, its frames and the job's
 * start commit together, and the answer is 202 with the task to poll.
 */
export async function startQrSort(db: Db, accountId: string, agencyId: number, jobId: number, origin: string) {
  await requireJob(db, accountId, agencyId, jobId);
  const files = await db
    .select({ id: jobFiles.id, filename: jobFiles.filename })
    .from(jobFiles)
    .where(and(eq(jobFiles.jobId, jobId), eq(jobFiles.accountId, accountId)))
    .orderBy(asc(jobFiles.id))
    .limit(MAX_SORT_FILES + 1);
  if (files.length === 0) throw badRequest("JOB_HAS_NO_PHOTOS", `Job ${jobId} has no photos yet: upload the picture day's frames before sorting them.`, { field: "jobId" });
  if (files.length > MAX_SORT_FILES) throw badRequest("TOO_MANY_FILES", `A QR sort takes at most ${MAX_SORT_FILES} photos; split the job.`, { field: "jobId" });
  const taskId = newId("task");
  await db.transaction(async (tx) => {
    await tx.insert(qrSortTasks).values({ id: taskId, accountId, agencyId, jobId, status: "queued", filesTotal: files.length });
    for (let at = 0; at < files.length; at += 500) {
      await tx.insert(qrSortFrames).values(files.slice(at, at + 500).map((f) => ({ taskId, accountId, fileId: f.id, filename: f.filename })));
    }
    await startJob(tx, { name: "qr-sort/task.requested", data: { taskId, accountId } });
  });
  return {
    task_id: taskId,
    type: "qr_sort" as const,
    status: "queued" as const,
    agency_id: agencyId,
    job_id: jobId,
    total_files: files.length,
    poll_url: `${origin}/v1/services/studio/jobs/${taskId}`,
    results_url: `${origin}/v1/services/studio/qr-sort/${taskId}/results`,
  };
}
