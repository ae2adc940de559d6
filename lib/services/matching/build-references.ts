import { and, asc, eq, exists, inArray, isNull, ne, or, sql, count } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { agencies, faceReferences, referenceBuilds, subjectPortraits, subjects, type ReferenceProblem } from "@/lib/foundation/db/schema";
import { newId } from "@/lib/foundation/ids";
import { startJob } from "@/lib/domain/jobs/start-job";
import { EMBEDDING_MODEL, faceSimilarity } from "@/lib/engines/ml/faces";
import { requireAgency } from "@/lib/services/agencies/agencies";
import { requireMatchingEnabled } from "./consent";
import { embedSubject } from "./embed-subject";
import { ASYNC_REFERENCES_FROM } from "./limits";

/** Above this similarity two roster entries are almost certainly the same person (see lib/engines/ml/faces/README.md). */
export const SAME_PERSON_SIMILARITY = 0.97;

type SubjectRow = typeof subjects.$inferSelect;

/** Subjects whose reference photos matching may use: a reference_photo_url or an uploaded portrait, and not opted out. */
export function embeddableSubjects(db: Db, agencyId: number) {
  const hasPortrait = db.select({ one: sql`1` }).from(subjectPortraits).where(eq(subjectPortraits.subjectId, subjects.id));
  return db
    .select()
    .from(subjects)
    .where(and(eq(subjects.agencyId, agencyId), eq(subjects.excludeFromMatching, false), or(sql`${subjects.referencePhotoUrl} is not null`, sql`${subjects.referencePhotoKey} is not null`, exists(hasPortrait))))
    .orderBy(asc(subjects.id));
}

/**
 * Embeddings dropped before a build: every one of a subject that opted out since, and
 * the reference_photo_url's of a subject that lost that photo (uploaded portraits take
 * theirs with them when deleted).
 */
async function dropStaleReferences(db: Db, agencyId: number): Promise<number> {
  const stale = await db
    .select({ id: faceReferences.id })
    .from(faceReferences)
    .innerJoin(subjects, eq(subjects.id, faceReferences.subjectId))
    .where(
      and(
        eq(faceReferences.agencyId, agencyId),
        or(
          eq(subjects.excludeFromMatching, true),
          and(eq(faceReferences.source, "portrait"), isNull(faceReferences.portraitId), isNull(subjects.referencePhotoUrl), isNull(subjects.referencePhotoKey)),
        ),
      ),
    );
  if (stale.length === 0) return 0;
  await db.delete(faceReferences).where(inArray(faceReferences.id, stale.map((s) => s.id)));
  return stale.length;
}

/**
 * POST /v1/services/studio/matching/references (contract 4.6): free. Under 20
 * subjects with photos the embeddings are made now; from 20 a job makes them
 * (202 with a task to poll). Either way only new or changed photos are embedded.
 */
export async function buildReferences(db: Db, accountId: string, agencyId: number, origin: string) {
  const agency = await requireAgency(db, accountId, agencyId);
  requireMatchingEnabled(agency);
  const removed = await dropStaleReferences(db, agencyId);
  const roster = await embeddableSubjects(db, agencyId);
  await db.update(agencies).set({ matchingUsedAt: new Date() }).where(eq(agencies.id, agencyId));
  if (roster.length >= ASYNC_REFERENCES_FROM) {
    const taskId = newId("task");
    await db.transaction(async (tx) => {
      await tx.insert(referenceBuilds).values({ id: taskId, accountId, agencyId, status: "queued", subjectsTotal: roster.length });
      await startJob(tx, { name: "matching/references.requested", data: { taskId, accountId } });
    });
    return {
      status: 202,
      body: { status: "queued" as const, agency_id: agencyId, task_id: taskId, subjects_with_photos: roster.length, poll_url: `${origin}/v1/services/studio/jobs/${taskId}` },
    };
  }
  const { created, kept, report } = await embedAll(db, roster);
  await dropOutdatedReferences(db, agencyId);
  report.push(...(await sameChildReport(db, agencyId, roster)));
  return {
    status: 200,
    body: {
      status: "completed" as const,
      agency_id: agencyId,
      subjects_with_photos: roster.length,
      embeddings_created: created,
      embeddings_kept: kept,
      embeddings_removed: removed,
      embeddings_total: await countReferences(db, agencyId),
      report,
    },
  };
}

export async function embedAll(db: Db, roster: SubjectRow[], signal?: AbortSignal) {
  let created = 0;
  let kept = 0;
  const report: ReferenceProblem[] = [];
  for (const subject of roster) {
    const outcome = await embedSubject(db, subject, signal);
    created += outcome.created;
    kept += outcome.kept;
    report.push(...outcome.problems);
  }
  return { created, kept, report };
}

/** After a build: what is still of another model (a subject no longer embeddable, a learned face not found again) cannot be used, and goes. */
export async function dropOutdatedReferences(db: Db, agencyId: number): Promise<number> {
  const gone = await db.delete(faceReferences).where(and(eq(faceReferences.agencyId, agencyId), ne(faceReferences.model, EMBEDDING_MODEL))).returning({ id: faceReferences.id });
  return gone.length;
}

export async function countReferences(db: Db, agencyId: number) {
  const [row] = await db.select({ n: count() }).from(faceReferences).where(eq(faceReferences.agencyId, agencyId));
  return row?.n ?? 0;
}

/**
 * The same child entered twice (two student ids, one face) would split their
 * photos between two families: reported, both kept, the photographer decides.
 */
export async function sameChildReport(db: Db, agencyId: number, roster: SubjectRow[]): Promise<ReferenceProblem[]> {
  // Portraits only: a confirmed match is already a reviewer's word on who it is.
  const refs = await db
    .select({ subjectId: faceReferences.subjectId, embedding: faceReferences.embedding })
    .from(faceReferences)
    .where(and(eq(faceReferences.agencyId, agencyId), eq(faceReferences.source, "portrait"), eq(faceReferences.model, EMBEDDING_MODEL)))
    .orderBy(asc(faceReferences.subjectId));
  const bySubject = new Map(roster.map((s) => [s.id, s]));
  const problems: ReferenceProblem[] = [];
  const reported = new Set<string>();
  for (let i = 0; i < refs.length; i++) {
    for (let j = i + 1; j < refs.length; j++) {
      const pair = `${refs[i]!.subjectId}:${refs[j]!.subjectId}`;
      if (refs[i]!.subjectId === refs[j]!.subjectId || reported.has(pair)) continue;
      if (faceSimilarity(refs[i]!.embedding, refs[j]!.embedding) < SAME_PERSON_SIMILARITY) continue;
      const [a, b] = [bySubject.get(refs[i]!.subjectId), bySubject.get(refs[j]!.subjectId)];
      if (!a || !b) continue;
      reported.add(pair);
      problems.push({
        student_id: b.studentId,
        subject_id: b.id,
        reason: "possible_duplicate",
        message: `The reference photo looks like the same person as student ${a.studentId} (${a.name}). If it is one child entered twice, delete one; photos would otherwise be split between them.`,
      });
    }
  }
  return problems;
}

/** DELETE /v1/services/studio/matching/references?agency_id=: every embedding of the agency, now. */
export async function deleteReferences(db: Db, accountId: string, agencyId: number) {
  await requireAgency(db, accountId, agencyId);
  const gone = await db.delete(faceReferences).where(and(eq(faceReferences.agencyId, agencyId), eq(faceReferences.accountId, accountId))).returning({ id: faceReferences.id });
  return { agency_id: agencyId, embeddings_deleted: gone.length };
}
