import { recordAudit } from "@/lib/domain/audit/record-audit";
import { and, asc, count, eq } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { agencies, agencyJobs, jobFiles, subjectPortraits, subjects } from "@/lib/foundation/db/schema";
import { ApiError, notFound } from "@/lib/foundation/http/api-error";
import { countNoun } from "@/lib/foundation/count-noun";
import { deleteStoredFiles } from "./stored-files";

export type AgencyRow = typeof agencies.$inferSelect;

/** The contract's agency fields (4.7): the list and the create answer share them. */
export function toPublicAgency(row: AgencyRow) {
  const consent = row.faceMatchingEnabled && row.faceMatchingConsentBy && row.faceMatchingConsentAt ? { confirmed_by: row.faceMatchingConsentBy, confirmed_at: row.faceMatchingConsentAt.toISOString() } : null;
  return { id: row.id, name: row.name, agency_type: row.agencyType, face_matching_enabled: row.faceMatchingEnabled, face_matching_consent: consent, learn_from_confirmed_matches: row.learnFromConfirmedMatches };
}

export async function listAgencies(db: Db, accountId: string) {
  const rows = await db.select().from(agencies).where(eq(agencies.accountId, accountId)).orderBy(asc(agencies.name), asc(agencies.id));
  return rows.map(toPublicAgency);
}

export async function createAgency(db: Db, accountId: string, input: { name: string; agency_type: AgencyRow["agencyType"] }) {
  const [row] = await db.insert(agencies).values({ accountId, name: input.name, agencyType: input.agency_type }).returning();
  return toPublicAgency(row!);
}

/** The caller's agency, or the 404 that another account's (or no) agency gets. */
export async function requireAgency(db: Db, accountId: string, agencyId: number): Promise<AgencyRow> {
  const [row] = await db.select().from(agencies).where(and(eq(agencies.id, agencyId), eq(agencies.accountId, accountId)));
  if (!row) throw notFound("Agency");
  return row;
}

export async function getAgency(db: Db, accountId: string, agencyId: number) {
  const agency = await requireAgency(db, accountId, agencyId);
  const [[s], [j]] = await Promise.all([
    db.select({ n: count() }).from(subjects).where(eq(subjects.agencyId, agencyId)),
    db.select({ n: count() }).from(agencyJobs).where(eq(agencyJobs.agencyId, agencyId)),
  ]);
  return { ...toPublicAgency(agency), subject_count: s?.n ?? 0, job_count: j?.n ?? 0 };
}

/**
 * DELETE: refused (409, with what it holds) while the agency has subjects or
 * photos, unless `cascade`; then its jobs, photos (and their stored files) and
 * roster go with it. Empty jobs never block: there is nothing in them to lose.
 */
export async function deleteAgency(db: Db, accountId: string, agencyId: number, opts: { cascade: boolean }) {
  await requireAgency(db, accountId, agencyId);
  const where = and(eq(jobFiles.accountId, accountId), eq(agencyJobs.agencyId, agencyId));
  const files = await db.select({ storageKey: jobFiles.storageKey, thumbnailKey: jobFiles.thumbnailKey }).from(jobFiles).innerJoin(agencyJobs, eq(agencyJobs.id, jobFiles.jobId)).where(where);
  const portraits = await db.select({ storageKey: subjectPortraits.storageKey, thumbnailKey: subjectPortraits.thumbnailKey }).from(subjectPortraits).where(and(eq(subjectPortraits.agencyId, agencyId), eq(subjectPortraits.accountId, accountId)));
  const [[s], [j]] = await Promise.all([
    db.select({ n: count() }).from(subjects).where(eq(subjects.agencyId, agencyId)),
    db.select({ n: count() }).from(agencyJobs).where(eq(agencyJobs.agencyId, agencyId)),
  ]);
  const subjectCount = s?.n ?? 0;
  const jobCount = j?.n ?? 0;
  if (!opts.cascade && (subjectCount > 0 || files.length > 0)) {
    const holds = [subjectCount ? countNoun(subjectCount, "subjects") : null, files.length ? `${countNoun(files.length, "photos")} in ${countNoun(jobCount, "jobs")}` : null].filter(Boolean).join(" and ");
    throw new ApiError(
      409,
      "AGENCY_NOT_EMPTY",
      `The agency still holds ${holds}. Delete them first, or send DELETE ?cascade=true to delete the agency with everything in it.`,
      { subjects: subjectCount, jobs: jobCount, photos: files.length, cascade_param: "cascade=true" },
    );
  }
  await db.transaction(async (tx) => {
    await tx.delete(agencies).where(and(eq(agencies.id, agencyId), eq(agencies.accountId, accountId)));
    await recordAudit(tx, { accountId, action: "agency.deleted", target: String(agencyId), data: { subjects: subjectCount, jobs: jobCount, photos: files.length } });
  });
  await deleteStoredFiles([...files, ...portraits]);
  return { deleted: { subjects: subjectCount, jobs: jobCount, photos: files.length } };
}
