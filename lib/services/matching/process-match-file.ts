import { and, desc, eq, isNotNull, ne, sql } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { faceReferences, jobFiles, matchFaces, matchFiles, matchJobs } from "@/lib/foundation/db/schema";
import { newId } from "@/lib/foundation/ids";
import { storage } from "@/lib/domain/storage";
import { describeFaces, EMBEDDING_MODEL, isFaceInputError } from "@/lib/engines/ml/faces";
import { roundBox } from "./embed-subject";
import { MAX_FACES_PER_PHOTO } from "./limits";
import { bestDecision, iou, matchPhoto, type Reference } from "./match-photo";

type Job = { id: number; accountId: string; agencyId: number; threshold: number };
type FileError = { code: string; message: string };

/** The agency's references of the running model as the job step uses them (never leave the server; another model's cannot be compared). */
export async function loadReferences(db: Db, agencyId: number): Promise<Reference[]> {
  return db
    .select({ subjectId: faceReferences.subjectId, embedding: faceReferences.embedding })
    .from(faceReferences)
    .where(and(eq(faceReferences.agencyId, agencyId), eq(faceReferences.model, EMBEDDING_MODEL)));
}

/** Decisions a photographer made on this photo in earlier match jobs, to carry over: a re-run never overwrites them. */
async function earlierReviews(db: Db, job: Job, fileId: number) {
  return db
    .select({ faceBox: matchFaces.faceBox, review: matchFaces.review, finalSubjectId: matchFaces.finalSubjectId, decision: matchFaces.decision, reviewedAt: matchFaces.reviewedAt })
    .from(matchFaces)
    .innerJoin(matchFiles, eq(matchFiles.id, matchFaces.matchFileId))
    .where(and(eq(matchFiles.fileId, fileId), eq(matchFaces.accountId, job.accountId), ne(matchFaces.matchJobId, job.id), isNotNull(matchFaces.review)))
    .orderBy(desc(matchFaces.reviewedAt));
}

/**
 * Matches one pending photo and records its faces (or its per-file error) and
 * the job's progress, once: a retried step skips a photo already done.
 * A photo with no face is a result (unmatched, no faces), not a failure.
 */
export async function processMatchFile(db: Db, job: Job, matchFileId: number, refs: Reference[], opts: { signal?: AbortSignal } = {}): Promise<"completed" | "failed" | "skipped"> {
  const [row] = await db
    .select({ id: matchFiles.id, fileId: matchFiles.fileId, storageKey: jobFiles.storageKey })
    .from(matchFiles)
    .leftJoin(jobFiles, eq(jobFiles.id, matchFiles.fileId))
    .where(and(eq(matchFiles.id, matchFileId), eq(matchFiles.matchJobId, job.id), eq(matchFiles.status, "pending")));
  if (!row) return "skipped";
  if (!row.storageKey) return recordFailure(db, job, row.id, { code: "SOURCE_MISSING", message: "The photo was deleted from the job before it was matched; it was not charged." });
  const object = await storage().get(row.storageKey);
  if (!object) return recordFailure(db, job, row.id, { code: "SOURCE_MISSING", message: "The photo is no longer in storage; it was not charged." });
  let described;
  try {
    described = await describeFaces(object.body, { maxFaces: MAX_FACES_PER_PHOTO });
  } catch (err) {
    if (opts.signal?.aborted) throw opts.signal.reason;
    if (isFaceInputError(err)) return recordFailure(db, job, row.id, { code: err.code, message: `${err.message} It was not charged.` });
    // Engine failures (and anything else) fail the step: the job retries it, then refunds what is left.
    throw err;
  }
  const proposals = matchPhoto(described.faces, refs, job.threshold);
  const earlier = row.fileId ? await earlierReviews(db, job, row.fileId) : [];
  const faces = proposals.map((p, faceIndex) => {
    const box = roundBox(p.face.box);
    const kept = earlier.find((e) => iou(e.faceBox, box) >= 0.5);
    return {
      id: newId("mfc"),
      matchFileId: row.id,
      matchJobId: job.id,
      accountId: job.accountId,
      faceIndex,
      faceBox: box,
      subjectId: p.best?.subjectId ?? null,
      score: p.best ? round3(p.best.similarity) : null,
      runnerUpSubjectId: p.runnerUp?.subjectId ?? null,
      runnerUpScore: p.runnerUp ? round3(p.runnerUp.similarity) : null,
      engineDecision: p.decision,
      reviewReason: p.reviewReason,
      review: kept?.review ?? null,
      reviewedAt: kept?.reviewedAt ?? null,
      decision: kept ? kept.decision : p.decision,
      finalSubjectId: kept ? kept.finalSubjectId : p.subjectId,
      // Until the job groups its faces (group-job-faces.ts), then dropped.
      embedding: Array.from(p.face.embedding),
    };
  });
  return db.transaction(async (tx) => {
    const done = await tx
      .update(matchFiles)
      .set({ status: "completed", width: described.width, height: described.height, decision: bestDecision(faces.map((f) => f.decision)), completedAt: new Date() })
      .where(and(eq(matchFiles.id, row.id), eq(matchFiles.status, "pending")))
      .returning({ id: matchFiles.id });
    if (done.length === 0) return "skipped" as const;
    if (faces.length) await tx.insert(matchFaces).values(faces);
    await tx.update(matchJobs).set({ processedFiles: sql`${matchJobs.processedFiles} + 1` }).where(eq(matchJobs.id, job.id));
    return "completed" as const;
  });
}

const round3 = (v: number) => Math.round(v * 1000) / 1000;

async function recordFailure(db: Db, job: Job, matchFileId: number, error: FileError): Promise<"failed" | "skipped"> {
  return db.transaction(async (tx) => {
    const done = await tx
      .update(matchFiles)
      .set({ status: "failed", errorCode: error.code, errorMessage: error.message, completedAt: new Date() })
      .where(and(eq(matchFiles.id, matchFileId), eq(matchFiles.status, "pending")))
      .returning({ id: matchFiles.id });
    if (done.length === 0) return "skipped" as const;
    await tx.update(matchJobs).set({ processedFiles: sql`${matchJobs.processedFiles} + 1` }).where(eq(matchJobs.id, job.id));
    return "failed" as const;
  });
}
