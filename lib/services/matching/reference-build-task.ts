import { and, eq, inArray, ne, sql } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { faceReferences, referenceBuilds, subjects, type ReferenceProblem } from "@/lib/foundation/db/schema";
import { EMBEDDING_MODEL } from "@/lib/engines/ml/faces";
import { notFound } from "@/lib/foundation/http/api-error";
import { dropOutdatedReferences, embedAll, embeddableSubjects, sameChildReport } from "./build-references";
import { learnFromReview } from "./confirmed-reference";
import { BUILD_GENERIC_FAILURE } from "./job-errors";

type BuildRow = typeof referenceBuilds.$inferSelect;

/** Problems are keyed by subject, photo and reason, so a retried step never reports one twice. */
function mergeReport(a: ReferenceProblem[], b: ReferenceProblem[]) {
  const key = (p: ReferenceProblem) => `${p.subject_id}:${p.portrait_id ?? ""}:${p.reason}`;
  const seen = new Map(a.map((p) => [key(p), p]));
  for (const p of b) seen.set(key(p), p);
  return [...seen.values()];
}

/** A build as its job works on it, with the subjects to embed; null when it is not this account's. */
export async function loadBuild(db: Db, taskId: string, accountId: string) {
  const [build] = await db.select().from(referenceBuilds).where(and(eq(referenceBuilds.id, taskId), eq(referenceBuilds.accountId, accountId)));
  if (!build) return null;
  const roster = await embeddableSubjects(db, build.agencyId);
  return { id: build.id, agencyId: build.agencyId, status: build.status, subjectIds: roster.map((s) => s.id) };
}

/** One step of the job: embeds these subjects (those still on the roster) and records the progress. */
export async function embedChunk(db: Db, build: Pick<BuildRow, "id" | "agencyId">, subjectIds: string[], signal?: AbortSignal) {
  await db.update(referenceBuilds).set({ status: "running" }).where(and(eq(referenceBuilds.id, build.id), eq(referenceBuilds.status, "queued")));
  const roster = subjectIds.length
    ? await db.select().from(subjects).where(and(inArray(subjects.id, subjectIds), eq(subjects.agencyId, build.agencyId), eq(subjects.excludeFromMatching, false)))
    : [];
  const relearned = await relearnConfirmedFaces(db, roster.map((s) => s.id));
  const { created, report } = await embedAll(db, roster, signal);
  await db.transaction(async (tx) => {
    const [row] = await tx.select().from(referenceBuilds).where(eq(referenceBuilds.id, build.id)).for("update");
    if (!row) return;
    await tx
      .update(referenceBuilds)
      .set({ processed: sql`least(${referenceBuilds.processed} + ${subjectIds.length}, ${referenceBuilds.subjectsTotal})`, embeddingsCreated: sql`${referenceBuilds.embeddingsCreated} + ${created + relearned}`, report: mergeReport(row.report, report) })
      .where(eq(referenceBuilds.id, build.id));
  });
}

/**
 * Faces learned from confirmed matches (confirmed-reference.ts) by another model are
 * described again from their job photo with the running one, rather than lost with the
 * model change; one that cannot be found again goes. Returns how many came back.
 */
async function relearnConfirmedFaces(db: Db, subjectIds: string[]): Promise<number> {
  if (subjectIds.length === 0) return 0;
  const old = await db
    .select({ id: faceReferences.id, accountId: faceReferences.accountId, matchFaceId: faceReferences.matchFaceId })
    .from(faceReferences)
    .where(and(inArray(faceReferences.subjectId, subjectIds), eq(faceReferences.source, "confirmed_match"), ne(faceReferences.model, EMBEDDING_MODEL)));
  let back = 0;
  for (const ref of old) {
    await db.delete(faceReferences).where(eq(faceReferences.id, ref.id));
    if (ref.matchFaceId && (await learnFromReview(db, ref.accountId, ref.matchFaceId)) === "added") back++;
  }
  return back;
}

export async function finishBuild(db: Db, taskId: string, outcome: "completed" | "failed", message?: string) {
  const [build] = await db.select().from(referenceBuilds).where(eq(referenceBuilds.id, taskId));
  if (!build || build.status === "completed" || build.status === "failed") return build ?? null;
  if (outcome === "completed") await dropOutdatedReferences(db, build.agencyId);
  const duplicates = outcome === "completed" ? await sameChildReport(db, build.agencyId, await embeddableSubjects(db, build.agencyId)) : [];
  const [ended] = await db
    .update(referenceBuilds)
    .set({
      status: outcome,
      processed: outcome === "completed" ? build.subjectsTotal : build.processed,
      report: mergeReport(build.report, duplicates),
      errorMessage: outcome === "failed" ? (message ?? BUILD_GENERIC_FAILURE) : null,
      completedAt: new Date(),
    })
    .where(eq(referenceBuilds.id, taskId))
    .returning();
  return ended!;
}

export function toPublicBuild(b: BuildRow) {
  return {
    task_id: b.id,
    type: "face_references" as const,
    agency_id: b.agencyId,
    status: b.status,
    subjects_total: b.subjectsTotal,
    processed: b.processed,
    embeddings_created: b.embeddingsCreated,
    report: b.report,
    error: b.errorMessage,
    created_at: b.createdAt.toISOString(),
    completed_at: b.completedAt?.toISOString() ?? null,
  };
}

export async function getReferenceBuild(db: Db, accountId: string, taskId: string) {
  const [b] = await db.select().from(referenceBuilds).where(and(eq(referenceBuilds.id, taskId), eq(referenceBuilds.accountId, accountId)));
  if (!b) throw notFound("Task");
  return toPublicBuild(b);
}
