import { and, count, desc, eq } from "drizzle-orm";
import type { Db } from "@/lib/db/types";
import { agencyJobs, jobFiles } from "@/lib/db/schema";
import { notFound } from "@/lib/http/api-error";
import { requireAgency } from "./agencies";

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
