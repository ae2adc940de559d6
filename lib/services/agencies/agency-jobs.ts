import { and, count, desc, eq } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { agencyJobs, jobFiles } from "@/lib/foundation/db/schema";
import { ApiError, notFound } from "@/lib/foundation/http/api-error";
import { countNoun } from "@/lib/foundation/count-noun";
import { requireAgency } from "./agencies";
import { deleteStoredFiles } from "./stored-files";
import { storage } from "@/lib/domain/storage";
import { jobPreviewKeys } from "./job-gallery-previews";

type JobRow = typeof agencyJobs.$inferSelect;

/** The contract lists `{ id, name, status }`; `icp_type` is added because Face Crop needs it from the picker. */
export function toPublicJob(row: JobRow) {
  return { id: row.id, name: row.name, status: row.status, icp_type: row.icpType };
}

export async function listJobs(db: Db, accountId: string, agencyId: number) {
  await requireAgency(db, accountId, agencyId);
  const rows = await db.select().from(agencyJobs).where(and(eq(agencyJobs.agencyId, agencyId), eq(agencyJobs.accountId, accountId))).orderBy(desc(agencyJobs.id));
  return rows.map(toPublicJob);
}

export async function createJob(db: Db, accountId: string, agencyId: number, input: { name: string; icp_type: JobRow["icpType"]; status: JobRow["status"] }) {
  await requireAgency(db, accountId, agencyId);
  const [row] = await db.insert(agencyJobs).values({ accountId, agencyId, name: input.name, icpType: input.icp_type, status: input.status }).returning();
  return toPublicJob(row!);
}

/** The caller's job under that agency; anything else (another account's, another agency's) is a 404. */
export async function requireJob(db: Db, accountId: string, agencyId: number, jobId: number): Promise<JobRow> {
  const [row] = await db
    .select()
    .from(agencyJobs)
    .where(and(eq(agencyJobs.id, jobId), eq(agencyJobs.agencyId, agencyId), eq(agencyJobs.accountId, accountId)));
  if (!row) throw notFound("Job");
  return row;
}

export async function getJob(db: Db, accountId: string, agencyId: number, jobId: number) {
  const job = await requireJob(db, accountId, agencyId, jobId);
  const [files] = await db.select({ n: count() }).from(jobFiles).where(eq(jobFiles.jobId, jobId));
  return { ...toPublicJob(job), agency_id: job.agencyId, file_count: files?.n ?? 0, created_at: job.createdAt.toISOString() };
}

/** PATCH: rename, or change the status or the preset. */
export async function updateJob(db: Db, accountId: string, agencyId: number, jobId: number, input: { name?: string; status?: JobRow["status"]; icp_type?: JobRow["icpType"] }) {
  await requireJob(db, accountId, agencyId, jobId);
  const set: Partial<typeof agencyJobs.$inferInsert> = {};
  if (input.name !== undefined) set.name = input.name;
  if (input.status !== undefined) set.status = input.status;
  if (input.icp_type !== undefined) set.icpType = input.icp_type;
  await db.update(agencyJobs).set(set).where(and(eq(agencyJobs.id, jobId), eq(agencyJobs.accountId, accountId)));
  return getJob(db, accountId, agencyId, jobId);
}

/** DELETE: refused (409, with the photo count) while the job holds photos, unless `cascade`; then the photos and their stored files go too. */
export async function deleteJob(db: Db, accountId: string, agencyId: number, jobId: number, opts: { cascade: boolean }) {
  await requireJob(db, accountId, agencyId, jobId);
  const files = await db.select({ storageKey: jobFiles.storageKey, thumbnailKey: jobFiles.thumbnailKey }).from(jobFiles).where(and(eq(jobFiles.jobId, jobId), eq(jobFiles.accountId, accountId)));
  if (!opts.cascade && files.length > 0) {
    throw new ApiError(409, "JOB_NOT_EMPTY", `The job still holds ${countNoun(files.length, "photos")}. Delete them first, or send DELETE ?cascade=true to delete the job with its photos.`, {
      photos: files.length,
      cascade_param: "cascade=true",
    });
  }
  // Its parent galleries close with it (their rows cascade); their previews are deleted with the photos.
  const previews = await jobPreviewKeys(db, accountId, jobId);
  await db.delete(agencyJobs).where(and(eq(agencyJobs.id, jobId), eq(agencyJobs.accountId, accountId)));
  await deleteStoredFiles(files);
  for (const key of previews) await storage().delete(key);
  return { deleted: { photos: files.length } };
}
