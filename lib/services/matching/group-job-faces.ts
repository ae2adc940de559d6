import { and, asc, eq, inArray, isNotNull, type SQLWrapper } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { matchFaces, matchJobs } from "@/lib/foundation/db/schema";
import { groupFaces, MAX_GROUPED_FACES } from "@/lib/engines/ml/faces/group-faces";
import { logger } from "@/lib/foundation/log/logger";
import { newId } from "@/lib/foundation/ids";

/**
 * The match job's last step before it ends: its faces grouped by likeness (every
 * face, filed or not, so a group holding a child's filed faces can be offered to
 * that child), the group numbers written and the embeddings dropped, in one
 * transaction: a retried step finds nothing left to group. Past MAX_GROUPED_FACES
 * the faces still to review are grouped first; the rest stay ungrouped (reviewed
 * one by one, as before).
 */
export async function groupJobFaces(db: Db, matchJobId: number): Promise<{ faces: number; groups: number }> {
  return db.transaction(async (tx) => {
    const rows = await tx
      .select({ id: matchFaces.id, embedding: matchFaces.embedding, decision: matchFaces.decision })
      .from(matchFaces)
      .where(and(eq(matchFaces.matchJobId, matchJobId), isNotNull(matchFaces.embedding)))
      .orderBy(asc(matchFaces.matchFileId), asc(matchFaces.faceIndex))
      .for("update");
    if (rows.length === 0) return { faces: 0, groups: 0 };
    const chosen = rows.length <= MAX_GROUPED_FACES ? rows : [...rows.filter((r) => r.decision !== "matched"), ...rows.filter((r) => r.decision === "matched")].slice(0, MAX_GROUPED_FACES);
    if (chosen.length < rows.length) logger().warn({ matchJobId, faces: rows.length, grouped: chosen.length }, "match job has more faces than one grouping takes: the rest are reviewed one by one");
    const groups = groupFaces(chosen.map((r) => r.embedding!));
    // One UPDATE per group (not per face): a school's job has hundreds of groups, thousands of faces.
    for (const members of groups) {
      const ids = members.map((i) => chosen[i]!.id);
      await tx
        .update(matchFaces)
        .set({ faceGroup: newId("fgr"), embedding: null })
        .where(and(eq(matchFaces.matchJobId, matchJobId), inArray(matchFaces.id, ids)));
    }
    await tx.update(matchFaces).set({ embedding: null }).where(and(eq(matchFaces.matchJobId, matchJobId), isNotNull(matchFaces.embedding)));
    return { faces: chosen.length, groups: groups.length };
  });
}

/** Drops the job faces' embeddings of an agency's match jobs (consent switched off, the retention sweep). */
export function forgetJobFaceEmbeddings(db: Db, agencyIds: number[] | SQLWrapper) {
  return db
    .update(matchFaces)
    .set({ embedding: null })
    .where(and(isNotNull(matchFaces.embedding), inArray(matchFaces.matchJobId, db.select({ id: matchJobs.id }).from(matchJobs).where(inArray(matchJobs.agencyId, agencyIds)))));
}
