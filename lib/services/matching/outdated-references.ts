import { and, asc, eq, inArray, ne, sql } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { agencies, faceReferences, referenceBuilds } from "@/lib/foundation/db/schema";
import { ApiError } from "@/lib/foundation/http/api-error";
import { appOrigin } from "@/lib/foundation/http/app-origin";
import { newId } from "@/lib/foundation/ids";
import { startJob } from "@/lib/domain/jobs/start-job";
import { EMBEDDING_MODEL } from "@/lib/engines/ml/faces";
import { embeddableSubjects } from "./build-references";

/**
 * Embeddings of another recognition model cannot be compared with this one's (another
 * length, another space). When EMBEDDING_MODEL changes, every agency's references are
 * rebuilt by the same durable job as POST .../matching/references (a studio task with
 * progress), started by the hourly sweep (a minute after the server starts) and by a
 * match job asked for meanwhile; matching is refused with a clear message until the
 * build is done, since a roster half in the old model would leave those children unfound.
 */

/** References of the agency made by another model than the one running. */
export async function outdatedReferenceCount(db: Db, agencyId: number): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(faceReferences).where(and(eq(faceReferences.agencyId, agencyId), ne(faceReferences.model, EMBEDDING_MODEL)));
  return row?.n ?? 0;
}

/** The agency's reference build in progress, or a new one started now (in one transaction with its row). */
export async function ensureReferenceRebuild(db: Db, accountId: string, agencyId: number): Promise<typeof referenceBuilds.$inferSelect> {
  const [active] = await db
    .select()
    .from(referenceBuilds)
    .where(and(eq(referenceBuilds.agencyId, agencyId), eq(referenceBuilds.accountId, accountId), inArray(referenceBuilds.status, ["queued", "running"])))
    .orderBy(asc(referenceBuilds.createdAt))
    .limit(1);
  if (active) return active;
  const roster = await embeddableSubjects(db, agencyId);
  const taskId = newId("task");
  return db.transaction(async (tx) => {
    const [build] = await tx.insert(referenceBuilds).values({ id: taskId, accountId, agencyId, status: "queued", subjectsTotal: roster.length }).returning();
    await startJob(tx, { name: "matching/references.requested", data: { taskId, accountId } });
    return build!;
  });
}

/** Refuses matching (409 REFERENCES_OUTDATED, naming the rebuild task and its progress) while any reference is of another model. */
export async function requireCurrentReferences(db: Db, accountId: string, agencyId: number, origin = appOrigin()) {
  const outdated = await outdatedReferenceCount(db, agencyId);
  if (outdated === 0) return;
  const build = await ensureReferenceRebuild(db, accountId, agencyId);
  throw new ApiError(
    409,
    "REFERENCES_OUTDATED",
    `The face recognition model was updated, and agency ${agencyId}'s reference embeddings are being rebuilt for it (task ${build.id}: ${build.processed} of ${build.subjectsTotal} subjects done). Matching starts when the rebuild is complete; follow it at ${origin}/v1/services/studio/jobs/${build.id}.`,
    { field: "agency_id", task_id: build.id, processed: build.processed, subjects_total: build.subjectsTotal, poll_url: `${origin}/v1/services/studio/jobs/${build.id}` },
  );
}

/** The sweep's part: a rebuild for every agency (matching on) holding references of another model. Returns how many were started or found running. */
export async function rebuildOutdatedReferences(db: Db): Promise<number> {
  const stale = await db
    .selectDistinct({ agencyId: faceReferences.agencyId, accountId: faceReferences.accountId })
    .from(faceReferences)
    .innerJoin(agencies, eq(agencies.id, faceReferences.agencyId))
    .where(and(ne(faceReferences.model, EMBEDDING_MODEL), eq(agencies.faceMatchingEnabled, true)));
  for (const a of stale) await ensureReferenceRebuild(db, a.accountId, a.agencyId);
  return stale.length;
}
