import { and, asc, count, eq } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { agencies, faceReferences, subjectPortraits, subjects } from "@/lib/foundation/db/schema";
import { ApiError, notFound } from "@/lib/foundation/http/api-error";
import { newId } from "@/lib/foundation/ids";
import { storage } from "@/lib/domain/storage";
import { ACCEPTED_TYPES } from "@/lib/domain/sources/detect-type";
import { cleanName, inspectPhoto, storedPhotoFields } from "@/lib/services/agencies/job-files";
import { deleteStoredFiles } from "@/lib/services/agencies/stored-files";
import { requireSubject } from "@/lib/services/agencies/subjects";
import { referencePhotoUrlFor } from "@/lib/services/agencies/reference-photo";
import type { DescribedFace } from "@/lib/engines/ml/faces";
import { describePortrait, referenceRow } from "./embed-subject";
import { MAX_REFERENCE_PORTRAITS } from "@/lib/services/agencies/limits";

type PortraitRow = typeof subjectPortraits.$inferSelect;
type SubjectRow = typeof subjects.$inferSelect;

async function toPublicPortrait(row: PortraitRow, embedded: boolean) {
  return {
    id: row.id,
    subject_id: row.subjectId,
    ...(await storedPhotoFields(row)),
    /** Whether a face embedding of it exists (made at upload while matching is on, else by the next reference build). */
    embedded,
    created_at: row.createdAt.toISOString(),
  };
}

/** The subject's reference_photo_url is one of its five reference photos when it has one. */
const urlPhotos = (subject: SubjectRow) => (subject.referencePhotoUrl || subject.referencePhotoKey ? 1 : 0);

/** Reference photos a subject holds: its uploaded portraits, and its reference_photo_url (one of the five). */
async function photoCount(db: Db, subject: SubjectRow) {
  const [row] = await db.select({ n: count() }).from(subjectPortraits).where(eq(subjectPortraits.subjectId, subject.id));
  return (row?.n ?? 0) + urlPhotos(subject);
}

async function portraitsAnswer(db: Db, subject: SubjectRow) {
  const rows = await db.select().from(subjectPortraits).where(eq(subjectPortraits.subjectId, subject.id)).orderBy(asc(subjectPortraits.createdAt), asc(subjectPortraits.id));
  const refs = await db.select({ portraitId: faceReferences.portraitId }).from(faceReferences).where(and(eq(faceReferences.subjectId, subject.id), eq(faceReferences.source, "portrait")));
  const embedded = new Set(refs.map((r) => r.portraitId));
  return {
    subject_id: subject.id,
    portraits: await Promise.all(rows.map((r) => toPublicPortrait(r, embedded.has(r.id)))),
    reference_photo_url: await referencePhotoUrlFor(subject),
    reference_photos: rows.length + urlPhotos(subject),
    max_reference_photos: MAX_REFERENCE_PORTRAITS,
  };
}

/** GET .../subjects/{subjectId}/portraits */
export async function listPortraits(db: Db, accountId: string, agencyId: number, subjectId: string) {
  return portraitsAnswer(db, await requireSubject(db, accountId, agencyId, subjectId));
}

/**
 * POST .../subjects/{subjectId}/portraits: one or more multipart `file` parts, each
 * a portrait of this subject alone. Every file is checked before any is stored; at
 * most five reference photos per subject (the reference_photo_url counts as one).
 * While the agency's face matching is on (and the subject not opted out) each is
 * embedded at once, and a portrait without exactly one clear face is refused (422
 * naming the part); otherwise the next reference build embeds it.
 */
export async function addPortraits(db: Db, accountId: string, agencyId: number, subjectId: string, form: FormData) {
  const subject = await requireSubject(db, accountId, agencyId, subjectId);
  const parts = form.getAll("file").filter((p): p is File => p instanceof File);
  if (parts.length === 0) throw new ApiError(400, "VALIDATION_ERROR", "Send the portraits in multipart parts named `file`.", { fields: [{ field: "file", message: "Required." }] });
  const held = await photoCount(db, subject);
  if (held + parts.length > MAX_REFERENCE_PORTRAITS) {
    throw new ApiError(
      409,
      "TOO_MANY_REFERENCE_PHOTOS",
      `A subject has at most ${MAX_REFERENCE_PORTRAITS} reference photos (the reference_photo_url counts as one); ${subject.name} has ${held}, so ${Math.max(0, MAX_REFERENCE_PORTRAITS - held)} more can be added. Delete one first.`,
      { field: "file", max: MAX_REFERENCE_PORTRAITS, current: held },
    );
  }
  const incoming = await Promise.all(
    parts.map(async (p, i) => ({ bytes: Buffer.from(await p.arrayBuffer()), filename: cleanName(p.name) || `portrait-${i + 1}`, sourceUrl: null, field: parts.length > 1 ? `file[${i}]` : "file" })),
  );
  const photos = [];
  for (const file of incoming) photos.push(await inspectPhoto(file));
  const [agency] = await db.select({ enabled: agencies.faceMatchingEnabled }).from(agencies).where(eq(agencies.id, agencyId));
  const embed = agency!.enabled && !subject.excludeFromMatching;
  const faces: DescribedFace[] = [];
  if (embed) {
    for (const [i, file] of incoming.entries()) {
      const described = await describePortrait(file.bytes, `The portrait ${file.filename}`);
      if (!("face" in described)) throw new ApiError(422, described.reason.toUpperCase(), described.message, { field: incoming[i]!.field });
      faces.push(described.face);
    }
  }
  const stored: { key: string; thumb: string }[] = [];
  try {
    for (const [i, file] of incoming.entries()) {
      const photo = photos[i]!;
      const id = newId("por");
      const stem = `studio/${accountId}/subjects/${subject.id}/${id}`;
      const key = `${stem}.${ACCEPTED_TYPES[photo.mime].ext}`;
      const thumb = `${stem}.thumb.jpg`;
      await storage().put(key, file.bytes, photo.mime);
      await storage().put(thumb, photo.thumbnail, "image/jpeg");
      stored.push({ key, thumb });
      await db.transaction(async (tx) => {
        await tx.insert(subjectPortraits).values({ id, accountId, agencyId, subjectId: subject.id, filename: file.filename, storageKey: key, thumbnailKey: thumb, contentType: photo.mime, size: file.bytes.byteLength, width: photo.width, height: photo.height });
        if (embed) await tx.insert(faceReferences).values(referenceRow(subject, faces[i]!, { source: "portrait", portraitId: id, photoSource: key }));
      });
    }
  } catch (err) {
    // A portrait stored without its row would never be deleted: take back what this request put.
    const done = await db.select({ key: subjectPortraits.storageKey }).from(subjectPortraits).where(eq(subjectPortraits.subjectId, subject.id));
    const kept = new Set(done.map((d) => d.key));
    await deleteStoredFiles(stored.filter((s) => !kept.has(s.key)).map((s) => ({ storageKey: s.key, thumbnailKey: s.thumb })));
    throw err;
  }
  return portraitsAnswer(db, subject);
}

/** DELETE .../subjects/{subjectId}/portraits/{portraitId}: the portrait, its stored files and its embedding. */
export async function deletePortrait(db: Db, accountId: string, agencyId: number, subjectId: string, portraitId: string) {
  const subject = await requireSubject(db, accountId, agencyId, subjectId);
  const [row] = await db.delete(subjectPortraits).where(and(eq(subjectPortraits.id, portraitId), eq(subjectPortraits.subjectId, subject.id), eq(subjectPortraits.accountId, accountId))).returning();
  if (!row) throw notFound("Portrait");
  await deleteStoredFiles([row]);
}
