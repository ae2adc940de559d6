import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/db/types";
import { faceReferences, subjects, type ReferenceProblem } from "@/lib/db/schema";
import { describeFaces, EMBEDDING_MODEL, isFaceInputError, type DescribedFace } from "@/lib/ml/faces";
import { photoSourceOf, referencePhotoBytes, ReferencePhotoError } from "./reference-bytes";

type SubjectRow = typeof subjects.$inferSelect;
export type EmbedOutcome = { kind: "created" } | { kind: "kept" } | { kind: "problem"; problem: ReferenceProblem };

/**
 * A second face at least this share of the main face's width makes a portrait
 * ambiguous (two children in the frame); a much smaller one (a face on a poster
 * behind, a passer-by) is ignored.
 */
const SECOND_FACE_SHARE = 0.6;

const problemOf = (s: SubjectRow, reason: string, message: string): EmbedOutcome => ({ kind: "problem", problem: { student_id: s.studentId, subject_id: s.id, reason, message } });

/** The one face a reference portrait must show, or why it does not. */
export function portraitFace(faces: DescribedFace[]): { face: DescribedFace } | { reason: "no_face" | "multiple_faces"; count: number } {
  if (faces.length === 0) return { reason: "no_face", count: 0 };
  const [main, second] = [...faces].sort((a, b) => b.box.w - a.box.w);
  if (second && second.box.w >= SECOND_FACE_SHARE * main!.box.w) return { reason: "multiple_faces", count: faces.length };
  return { face: main! };
}

/**
 * Embeds one subject's reference photo, unless its embedding is already from
 * this photo and this model. Problems (no face, several faces, unreadable or
 * unreachable photo) are reported, and any older embedding of that subject is
 * dropped: it no longer describes the photo on the roster.
 */
export async function embedSubject(db: Db, subject: SubjectRow, signal?: AbortSignal): Promise<EmbedOutcome> {
  const source = photoSourceOf(subject);
  const [existing] = await db.select({ model: faceReferences.model, photoSource: faceReferences.photoSource }).from(faceReferences).where(eq(faceReferences.subjectId, subject.id));
  if (existing && existing.model === EMBEDDING_MODEL && existing.photoSource === source) return { kind: "kept" };
  let outcome: EmbedOutcome;
  let face: DescribedFace | undefined;
  try {
    const described = await describeFaces(await referencePhotoBytes(subject, signal), { maxFaces: 5 });
    const picked = portraitFace(described.faces);
    if ("face" in picked) face = picked.face;
    else if (picked.reason === "no_face") outcome = problemOf(subject, "no_face", "No face was found in the reference photo: use a portrait where the face is clearly visible.");
    else outcome = problemOf(subject, "multiple_faces", `The reference photo shows ${picked.count} faces: use a portrait of this person alone.`);
  } catch (err) {
    if (signal?.aborted) throw signal.reason;
    if (err instanceof ReferencePhotoError) outcome = problemOf(subject, err.reason, err.message);
    else if (isFaceInputError(err)) outcome = problemOf(subject, "unreadable", `The reference photo cannot be used: ${err.message}`);
    else throw err;
  }
  if (!face) {
    await db.delete(faceReferences).where(and(eq(faceReferences.subjectId, subject.id), eq(faceReferences.accountId, subject.accountId)));
    return outcome!;
  }
  const row = {
    subjectId: subject.id,
    accountId: subject.accountId,
    agencyId: subject.agencyId,
    embedding: Array.from(face.embedding),
    model: EMBEDDING_MODEL,
    photoSource: source,
    faceBox: roundBox(face.box),
    createdAt: new Date(),
  };
  await db.insert(faceReferences).values(row).onConflictDoUpdate({ target: faceReferences.subjectId, set: { embedding: row.embedding, model: row.model, photoSource: row.photoSource, faceBox: row.faceBox, createdAt: row.createdAt } });
  return { kind: "created" };
}

export const roundBox = (b: { x: number; y: number; w: number; h: number }) => ({ x: Math.round(b.x), y: Math.round(b.y), w: Math.round(b.w), h: Math.round(b.h) });
