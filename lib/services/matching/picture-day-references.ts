import { and, desc, eq, inArray, isNotNull } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { agencies, faceReferences, jobFiles, qrSortFrames, qrSortTasks, subjects } from "@/lib/foundation/db/schema";
import { storage } from "@/lib/domain/storage";
import { describeFaces, isFaceInputError } from "@/lib/engines/ml/faces";
import { portraitFace, referenceRow } from "./embed-subject";
import { MAX_CONFIRMED_REFERENCES, MAX_FACES_PER_PHOTO } from "./limits";
import { qualityIssueOf } from "./quality-gates";

/**
 * References from picture day: a QR sort's run (the frames after a child's card) is
 * known to be that child, so its frames become the child's references, the way a
 * reviewer's confirmed matches do (source confirmed_match, the same newest
 * MAX_CONFIRMED_REFERENCES, dropped with them when learning is switched off) — when the
 * agency has face matching and learn_from_confirmed_matches on, and the subject is not
 * opted out. Matching the same day's candids and group photos then starts with several
 * same-day faces per child rather than one portrait.
 *
 * Only frames the sort filed without doubt: role subject, no review reason (a frame
 * whose face matched another child, face_disagrees, is left out), one dominant face
 * (portraitFace: two children of equal size say nothing about which is which), and the
 * quality gates of matching (small, blurred, turned away, hidden faces are not learned).
 * The newest frames of a run are tried first.
 */

/** The subjects this sort filed frames under, for the job's steps (empty when learning is off for the agency). */
export async function pictureDaySubjects(db: Db, taskId: string): Promise<string[]> {
  const [task] = await db
    .select({ agencyId: qrSortTasks.agencyId, enabled: agencies.faceMatchingEnabled, learn: agencies.learnFromConfirmedMatches })
    .from(qrSortTasks)
    .innerJoin(agencies, eq(agencies.id, qrSortTasks.agencyId))
    .where(eq(qrSortTasks.id, taskId));
  if (!task?.enabled || !task.learn) return [];
  const rows = await db
    .selectDistinct({ subjectId: qrSortFrames.subjectId })
    .from(qrSortFrames)
    .innerJoin(subjects, eq(subjects.id, qrSortFrames.subjectId))
    .where(and(eq(qrSortFrames.taskId, taskId), eq(qrSortFrames.role, "subject"), eq(subjects.excludeFromMatching, false)));
  return rows.map((r) => r.subjectId!).sort();
}

/** Learns these subjects' references from the sort's runs; returns how many were added. Safe to repeat (a frame already learned is kept). */
export async function learnFromPictureDay(db: Db, taskId: string, subjectIds: string[], signal?: AbortSignal): Promise<number> {
  if (subjectIds.length === 0) return 0;
  const frames = await db
    .select({ subjectId: qrSortFrames.subjectId, storageKey: jobFiles.storageKey, review: qrSortFrames.review })
    .from(qrSortFrames)
    .innerJoin(jobFiles, eq(jobFiles.id, qrSortFrames.fileId))
    .where(and(eq(qrSortFrames.taskId, taskId), eq(qrSortFrames.role, "subject"), eq(qrSortFrames.status, "read"), inArray(qrSortFrames.subjectId, subjectIds), isNotNull(qrSortFrames.sequence)))
    .orderBy(desc(qrSortFrames.sequence));
  let added = 0;
  for (const subjectId of subjectIds) {
    // Read per subject: learning or matching may have been switched off meanwhile.
    const [subject] = await db
      .select({ subject: subjects, enabled: agencies.faceMatchingEnabled, learn: agencies.learnFromConfirmedMatches })
      .from(subjects)
      .innerJoin(agencies, eq(agencies.id, subjects.agencyId))
      .where(eq(subjects.id, subjectId));
    if (!subject || !subject.enabled || !subject.learn || subject.subject.excludeFromMatching) continue;
    let learned = 0;
    for (const frame of frames.filter((f) => f.subjectId === subjectId && f.review.length === 0)) {
      if (learned >= MAX_CONFIRMED_REFERENCES) break;
      signal?.throwIfAborted();
      const [held] = await db
        .select({ id: faceReferences.id })
        .from(faceReferences)
        .where(and(eq(faceReferences.subjectId, subjectId), eq(faceReferences.source, "confirmed_match"), eq(faceReferences.photoSource, frame.storageKey)));
      if (held) {
        learned++;
        continue;
      }
      const object = await storage().get(frame.storageKey);
      if (!object) continue;
      let faces;
      try {
        faces = (await describeFaces(object.body, { maxFaces: MAX_FACES_PER_PHOTO })).faces;
      } catch (err) {
        if (isFaceInputError(err)) continue;
        throw err;
      }
      const picked = portraitFace(faces);
      if (!("face" in picked) || qualityIssueOf(picked.face)) continue;
      await db.transaction(async (tx) => {
        await tx.insert(faceReferences).values(referenceRow(subject.subject, picked.face, { source: "confirmed_match", photoSource: frame.storageKey }));
        const kept = await tx
          .select({ id: faceReferences.id })
          .from(faceReferences)
          .where(and(eq(faceReferences.subjectId, subjectId), eq(faceReferences.source, "confirmed_match")))
          .orderBy(desc(faceReferences.createdAt), desc(faceReferences.id));
        const oldest = kept.slice(MAX_CONFIRMED_REFERENCES).map((r) => r.id);
        if (oldest.length) await tx.delete(faceReferences).where(inArray(faceReferences.id, oldest));
      });
      learned++;
      added++;
    }
  }
  return added;
}

