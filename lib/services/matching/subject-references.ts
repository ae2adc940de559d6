import { and, asc, eq, isNull } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "@/lib/foundation/db/types";
import { faceReferences, jobFiles, matchFaces, matchFiles, subjectPortraits } from "@/lib/foundation/db/schema";
import { ApiError, notFound } from "@/lib/foundation/http/api-error";
import { OUTPUT_URL_TTL_SECONDS, storage } from "@/lib/domain/storage";
import { requireSubject } from "@/lib/services/agencies/subjects";
import { referencePhotoUrlFor } from "@/lib/services/agencies/reference-photo";

/**
 * GET .../subjects/{subjectId}/references: what the subject's face embeddings were
 * made from (never the embeddings): its portraits, and faces confirmed by a reviewer
 * with the photo's thumbnail and the face's box in it, so the roster can show them.
 */
export async function listSubjectReferences(db: Db, accountId: string, agencyId: number, subjectId: string) {
  const subject = await requireSubject(db, accountId, agencyId, subjectId);
  // A face learned from picture day (a QR sort's run, picture-day-references.ts) has no match face: its job photo is found by its storage key.
  const runPhotos = alias(jobFiles, "run_photos");
  const rows = await db
    .select({
      ref: { id: faceReferences.id, source: faceReferences.source, portraitId: faceReferences.portraitId, matchFaceId: faceReferences.matchFaceId, faceBox: faceReferences.faceBox, createdAt: faceReferences.createdAt },
      portraitThumb: subjectPortraits.thumbnailKey,
      photoThumb: jobFiles.thumbnailKey,
      photoWidth: jobFiles.width,
      photoHeight: jobFiles.height,
      matchJobId: matchFaces.matchJobId,
      filename: matchFiles.filename,
      run: { thumb: runPhotos.thumbnailKey, width: runPhotos.width, height: runPhotos.height, filename: runPhotos.filename },
    })
    .from(faceReferences)
    .leftJoin(subjectPortraits, eq(subjectPortraits.id, faceReferences.portraitId))
    .leftJoin(matchFaces, eq(matchFaces.id, faceReferences.matchFaceId))
    .leftJoin(matchFiles, eq(matchFiles.id, matchFaces.matchFileId))
    .leftJoin(jobFiles, eq(jobFiles.id, matchFiles.fileId))
    .leftJoin(runPhotos, and(eq(faceReferences.source, "confirmed_match"), isNull(faceReferences.matchFaceId), eq(runPhotos.storageKey, faceReferences.photoSource), eq(runPhotos.accountId, faceReferences.accountId)))
    .where(and(eq(faceReferences.subjectId, subject.id), eq(faceReferences.accountId, accountId)))
    .orderBy(asc(faceReferences.source), asc(faceReferences.createdAt), asc(faceReferences.id));
  const contractPhoto = await referencePhotoUrlFor(subject);
  const references = await Promise.all(
    rows.map((r) => (r.ref.matchFaceId || !r.run?.filename ? r : { ...r, photoThumb: r.run.thumb, photoWidth: r.run.width, photoHeight: r.run.height, filename: r.run.filename })).map(async (r) => ({
      id: r.ref.id,
      source: r.ref.source,
      portrait_id: r.ref.portraitId,
      match_face_id: r.ref.matchFaceId,
      match_job_id: r.matchJobId,
      filename: r.filename,
      thumbnail_url: r.portraitThumb ?? r.photoThumb ? await storage().signedUrl((r.portraitThumb ?? r.photoThumb)!, OUTPUT_URL_TTL_SECONDS) : r.ref.source === "portrait" ? contractPhoto : null,
      /** The face in the photo the thumbnail shows (source pixels of that photo; for a confirmed match, with its width and height). */
      face_box: r.ref.faceBox,
      photo_width: r.photoWidth,
      photo_height: r.photoHeight,
      created_at: r.ref.createdAt.toISOString(),
    })),
  );
  return { subject_id: subject.id, references };
}

/**
 * DELETE .../subjects/{subjectId}/references/{referenceId}: removes a reference
 * learned from a confirmed match. A portrait's reference goes with its portrait
 * (DELETE .../portraits/{id}) or with the reference_photo_url: deleting it alone
 * would only see it rebuilt, so that is a 409 saying so.
 */
export async function deleteSubjectReference(db: Db, accountId: string, agencyId: number, subjectId: string, referenceId: string) {
  const subject = await requireSubject(db, accountId, agencyId, subjectId);
  const [ref] = await db.select({ id: faceReferences.id, source: faceReferences.source, portraitId: faceReferences.portraitId }).from(faceReferences).where(and(eq(faceReferences.id, referenceId), eq(faceReferences.subjectId, subject.id), eq(faceReferences.accountId, accountId)));
  if (!ref) throw notFound("Reference");
  if (ref.source === "portrait") {
    const how = ref.portraitId ? `delete the portrait (DELETE .../subjects/${subject.id}/portraits/${ref.portraitId})` : "clear or change the subject's reference_photo_url";
    throw new ApiError(409, "REFERENCE_FROM_PORTRAIT", `This reference is made from a portrait and would be rebuilt from it: ${how}.`, { field: "referenceId", portrait_id: ref.portraitId });
  }
  await db.delete(faceReferences).where(eq(faceReferences.id, ref.id));
}
