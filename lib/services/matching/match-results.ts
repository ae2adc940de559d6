import { and, asc, count, eq, exists, getTableColumns, inArray, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "@/lib/foundation/db/types";
import { jobFiles, matchFaces, matchFiles, subjects } from "@/lib/foundation/db/schema";
import { pageWindow } from "@/lib/foundation/http/pagination";
import { OUTPUT_URL_TTL_SECONDS, storage } from "@/lib/domain/storage";
import { requireMatchJob } from "./match-job-status";
import type { ResultsQuery } from "./schemas";

const runnerUp = alias(subjects, "runner_up");
const proposed = alias(subjects, "proposed");
const candidate = alias(subjects, "candidate");

type FaceRow = Awaited<ReturnType<typeof facesOf>>[number];

/**
 * A face's columns without its embedding: a running job keeps each face's embedding
 * until it groups them (group-job-faces.ts); the review never reads it.
 */
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- taken out so the rest can be selected
const { embedding: _embedding, ...faceColumns } = getTableColumns(matchFaces);

/** Faces of these photos, with the names the review needs (never the embeddings). */
export function facesOf(db: Db, matchFileIds: number[]) {
  return db
    .select({
      face: faceColumns,
      studentId: proposed.studentId,
      name: proposed.name,
      runnerUpStudentId: runnerUp.studentId,
      runnerUpName: runnerUp.name,
      candidateStudentId: candidate.studentId,
      candidateName: candidate.name,
    })
    .from(matchFaces)
    .leftJoin(proposed, eq(proposed.id, matchFaces.finalSubjectId))
    .leftJoin(runnerUp, eq(runnerUp.id, matchFaces.runnerUpSubjectId))
    .leftJoin(candidate, eq(candidate.id, matchFaces.subjectId))
    .where(inArray(matchFaces.matchFileId, matchFileIds))
    .orderBy(asc(matchFaces.matchFileId), asc(matchFaces.faceIndex));
}

export function toPublicFace(r: FaceRow) {
  const f = r.face;
  return {
    id: f.id,
    face_box: f.faceBox,
    student_id: r.studentId,
    subject_id: f.finalSubjectId,
    name: r.name,
    /** The engine's best similarity for this face (to `candidate`), whatever the decision. */
    score: f.score,
    candidate: f.subjectId == null || f.score == null ? null : { subject_id: f.subjectId, student_id: r.candidateStudentId, name: r.candidateName, score: f.score },
    runner_up: f.runnerUpScore == null ? null : { student_id: r.runnerUpStudentId, subject_id: f.runnerUpSubjectId, name: r.runnerUpName, score: f.runnerUpScore },
    decision: f.decision,
    engine_decision: f.engineDecision,
    /** Why the engine sent the face to review; null when it did not. */
    review_reason: f.reviewReason ?? null,
    review: f.review,
    reviewed_at: f.reviewedAt?.toISOString() ?? null,
  };
}

/**
 * GET /v1/services/studio/matching/jobs/{id}/results: one item per photo in job
 * order, filtered by the photo's decision ("failed" for photos that could not be
 * matched) or by a subject (every photo matched to one child, group photos included).
 */
export async function listMatchResults(db: Db, accountId: string, matchJobId: number, q: ResultsQuery) {
  const job = await requireMatchJob(db, accountId, matchJobId);
  const filters: SQL[] = [eq(matchFiles.matchJobId, job.id)];
  if (q.decision === "failed") filters.push(eq(matchFiles.status, "failed"));
  else if (q.decision) filters.push(eq(matchFiles.decision, q.decision));
  if (q.subject_id) {
    filters.push(
      exists(
        db
          .select({ one: matchFaces.id })
          .from(matchFaces)
          .where(and(eq(matchFaces.matchFileId, matchFiles.id), eq(matchFaces.finalSubjectId, q.subject_id), eq(matchFaces.decision, "matched"))),
      ),
    );
  }
  const where = and(...filters);
  const [rows, [total]] = await Promise.all([
    db
      .select({ file: matchFiles, storageKey: jobFiles.storageKey, thumbnailKey: jobFiles.thumbnailKey })
      .from(matchFiles)
      .leftJoin(jobFiles, eq(jobFiles.id, matchFiles.fileId))
      .where(where)
      .orderBy(asc(matchFiles.position))
      .limit(q.limit)
      .offset(pageWindow(q).offset),
    db.select({ n: count() }).from(matchFiles).where(where),
  ]);
  const faces = rows.length ? await facesOf(db, rows.map((r) => r.file.id)) : [];
  const items = await Promise.all(
    rows.map(async ({ file, storageKey, thumbnailKey }) => ({
      file_id: file.fileId,
      filename: file.filename,
      status: file.status,
      decision: file.status === "completed" ? file.decision : null,
      width: file.width,
      height: file.height,
      thumbnail_url: thumbnailKey ? await storage().signedUrl(thumbnailKey, OUTPUT_URL_TTL_SECONDS) : null,
      image_url: storageKey ? await storage().signedUrl(storageKey, OUTPUT_URL_TTL_SECONDS) : null,
      error: file.status === "failed" ? { code: file.errorCode ?? "PROCESSING_FAILED", message: file.errorMessage ?? "" } : null,
      faces: faces.filter((f) => f.face.matchFileId === file.id).map(toPublicFace),
    })),
  );
  return { items, total: total?.n ?? 0 };
}
