import { and, asc, count, eq } from "drizzle-orm";
import type { Db } from "@/lib/db/types";
import { agencies, agencyJobs, subjects } from "@/lib/db/schema";
import { notFound } from "@/lib/http/api-error";

type AgencyRow = typeof agencies.$inferSelect;

/** The contract's agency fields (4.7): the list and the create answer share them. */
export function toPublicAgency(row: AgencyRow) {
  return { id: row.id, name: row.name, agency_type: row.agencyType, face_matching_enabled: row.faceMatchingEnabled };
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
