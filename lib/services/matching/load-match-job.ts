import { and, asc, eq } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { matchFiles, matchJobs } from "@/lib/foundation/db/schema";

/** A match job as its job works on it, with its photos' ids in order; null when it is not this account's. */
export async function loadMatchJob(db: Db, matchJobId: number, accountId: string) {
  const [row] = await db.select().from(matchJobs).where(and(eq(matchJobs.id, matchJobId), eq(matchJobs.accountId, accountId)));
  if (!row) return null;
  const files = await db.select({ id: matchFiles.id }).from(matchFiles).where(eq(matchFiles.matchJobId, row.id)).orderBy(asc(matchFiles.position));
  return { id: row.id, accountId: row.accountId, agencyId: row.agencyId, threshold: row.threshold, status: row.status, fileIds: files.map((f) => f.id) };
}

/** queued -> running (a job already past queued is left as it is). */
export async function markMatchJobRunning(db: Db, matchJobId: number) {
  await db.update(matchJobs).set({ status: "running" }).where(and(eq(matchJobs.id, matchJobId), eq(matchJobs.status, "queued")));
}
