import { and, desc, eq, inArray, ne } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { agencies, faceReferences, jobFiles, matchFaces, matchFiles, subjects } from "@/lib/foundation/db/schema";
import { storage } from "@/lib/domain/storage";
import { describeFaces, isFaceInputError } from "@/lib/engines/ml/faces";
import { referenceRow } from "./embed-subject";
import { MAX_CONFIRMED_REFERENCES, MAX_FACES_PER_PHOTO } from "./limits";
import { iou } from "./match-photo";
import { qualityIssueOf } from "./quality-gates";

export type LearnOutcome = "added" | "kept" | "off" | "not_confirmed" | "photo_missing" | "face_not_found" | "poor_quality";

/**
 * After a review: a face the reviewer accepted or assigned becomes a reference of
 * its subject (source confirmed_match), so the next photos of that child are found
 * from a same-day face too, when the agency's learn_from_confirmed_matches and face
 * matching are on and the subject is not opted out. A reference learned from this
 * face that the review no longer supports (reset, nobody, another subject) goes at
 * once. A subject keeps the newest MAX_CONFIRMED_REFERENCES; a face that fails a
 * quality gate (small, blurred, turned away, hidden) is not learned.
 *
 * match_faces keeps no embeddings (only the subjects' references are biometric data
 * we hold), so the face is described again from the job's photo.
 */
export async function learnFromReview(db: Db, accountId: string, faceId: string): Promise<LearnOutcome> {
  const [row] = await db
    .select({ face: matchFaces, storageKey: jobFiles.storageKey })
    .from(matchFaces)
    .innerJoin(matchFiles, eq(matchFiles.id, matchFaces.matchFileId))
    .leftJoin(jobFiles, eq(jobFiles.id, matchFiles.fileId))
    .where(and(eq(matchFaces.id, faceId), eq(matchFaces.accountId, accountId)));
  if (!row) return "not_confirmed";
  const { face } = row;
  const confirmed = face.decision === "matched" && (face.review === "accepted" || face.review === "assigned") && face.finalSubjectId ? face.finalSubjectId : null;
  await db.delete(faceReferences).where(and(eq(faceReferences.matchFaceId, face.id), confirmed ? ne(faceReferences.subjectId, confirmed) : undefined));
  if (!confirmed) return "not_confirmed";

  const [subject] = await db
    .select({ subject: subjects, enabled: agencies.faceMatchingEnabled, learn: agencies.learnFromConfirmedMatches })
    .from(subjects)
    .innerJoin(agencies, eq(agencies.id, subjects.agencyId))
    .where(and(eq(subjects.id, confirmed), eq(subjects.accountId, accountId)));
  if (!subject || !subject.enabled || !subject.learn || subject.subject.excludeFromMatching) return "off";
  const [held] = await db.select({ id: faceReferences.id }).from(faceReferences).where(and(eq(faceReferences.matchFaceId, face.id), eq(faceReferences.subjectId, confirmed)));
  if (held) return "kept";

  const object = row.storageKey ? await storage().get(row.storageKey) : null;
  if (!object) return "photo_missing";
  let faces;
  try {
    faces = (await describeFaces(object.body, { maxFaces: MAX_FACES_PER_PHOTO })).faces;
  } catch (err) {
    if (isFaceInputError(err)) return "photo_missing";
    throw err;
  }
  const found = faces.map((f) => ({ f, overlap: iou(f.box, face.faceBox) })).sort((a, b) => b.overlap - a.overlap)[0];
  if (!found || found.overlap < 0.5) return "face_not_found";
  if (qualityIssueOf(found.f)) return "poor_quality";

  await db.transaction(async (tx) => {
    await tx.insert(faceReferences).values(referenceRow(subject.subject, found.f, { source: "confirmed_match", matchFaceId: face.id, photoSource: row.storageKey! }));
    const learned = await tx
      .select({ id: faceReferences.id })
      .from(faceReferences)
      .where(and(eq(faceReferences.subjectId, confirmed), eq(faceReferences.source, "confirmed_match")))
      .orderBy(desc(faceReferences.createdAt), desc(faceReferences.id));
    const oldest = learned.slice(MAX_CONFIRMED_REFERENCES).map((r) => r.id);
    if (oldest.length) await tx.delete(faceReferences).where(inArray(faceReferences.id, oldest));
  });
  return "added";
}

/** Turning learn_from_confirmed_matches off drops what it learned: matching goes back to the portraits alone. */
export async function forgetConfirmedMatches(db: Db, accountId: string, agencyId: number) {
  await db.delete(faceReferences).where(and(eq(faceReferences.agencyId, agencyId), eq(faceReferences.accountId, accountId), eq(faceReferences.source, "confirmed_match")));
}
