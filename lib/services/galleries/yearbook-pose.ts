import { and, eq, isNotNull } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { galleries, galleryPhotos, yearbookPoses } from "@/lib/foundation/db/schema";
import { conflict, notFound } from "@/lib/foundation/http/api-error";
import type { ParentPrincipal } from "./parent-principal";

// The parent picks one photo of their child as the yearbook pose, until the
// job's deadline (set at publish: galleries.yearbook_deadline); the job's PSPA
// export then uses it for that child (lib/services/qr-sort/pspa.ts). Only a
// photo of the child's own gallery: a group photo or another child's is a 404.

/** The child's own gallery (the code's subject), open now, with the job's deadline. */
async function ownGallery(db: Db, p: ParentPrincipal) {
  const [own] = await db
    .select({ id: galleries.id, deadline: galleries.yearbookDeadline })
    .from(galleries)
    .where(and(eq(galleries.accountId, p.accountId), eq(galleries.jobId, p.jobId), eq(galleries.kind, "subject"), eq(galleries.subjectId, p.subjectId)));
  if (!own || !p.galleryIds.includes(own.id)) throw notFound("Gallery");
  return own;
}

const describePose = (deadline: Date | null, photoId: string | null, now = new Date()) => ({
  photo_id: photoId,
  deadline: deadline?.toISOString() ?? null,
  /** Whether the choice can still be made or changed. */
  open: deadline !== null && deadline.getTime() > now.getTime(),
});

/** GET /v1/parent/yearbook-pose: the chosen photo (or null), the deadline, and whether it can still change. */
export async function getYearbookPose(db: Db, p: ParentPrincipal) {
  const own = await ownGallery(db, p);
  const [pose] = await db.select({ photoId: yearbookPoses.photoId }).from(yearbookPoses).where(and(eq(yearbookPoses.jobId, p.jobId), eq(yearbookPoses.subjectId, p.subjectId)));
  return describePose(own.deadline, pose?.photoId ?? null);
}

/**
 * PUT /v1/parent/yearbook-pose: picks (or changes) the pose. 404 for a photo
 * outside the child's own gallery; 409 YEARBOOK_POSE_OFF when the job offers no
 * choice, 409 YEARBOOK_DEADLINE_PASSED after the deadline (the choice is then read-only).
 */
export async function chooseYearbookPose(db: Db, p: ParentPrincipal, photoId: string) {
  const own = await ownGallery(db, p);
  const [photo] = await db
    .select({ id: galleryPhotos.id, jobFileId: galleryPhotos.jobFileId })
    .from(galleryPhotos)
    .where(and(eq(galleryPhotos.id, photoId), eq(galleryPhotos.galleryId, own.id), isNotNull(galleryPhotos.previewKey)));
  if (!photo) throw notFound("Photo");
  if (!own.deadline) throw conflict("YEARBOOK_POSE_OFF", "The studio does not take a yearbook pose choice for this gallery.");
  const now = new Date();
  if (own.deadline.getTime() <= now.getTime()) {
    throw conflict("YEARBOOK_DEADLINE_PASSED", `The yearbook pose could be chosen until ${own.deadline.toISOString()}; the choice is now closed.`);
  }
  const values = { photoId: photo.id, jobFileId: photo.jobFileId, chosenAt: now };
  await db
    .insert(yearbookPoses)
    .values({ jobId: p.jobId, subjectId: p.subjectId, accountId: p.accountId, ...values })
    .onConflictDoUpdate({ target: [yearbookPoses.jobId, yearbookPoses.subjectId], set: values });
  return describePose(own.deadline, photo.id, now);
}
