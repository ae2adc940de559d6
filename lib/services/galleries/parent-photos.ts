import { and, asc, count, eq, inArray, isNotNull } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { galleries, galleryFavourites, galleryPhotos, jobFiles } from "@/lib/foundation/db/schema";
import { notFound } from "@/lib/foundation/http/api-error";
import { storage } from "@/lib/domain/storage";
import { describeParentGalleries } from "./exchange-code";
import { openGalleriesOf } from "./open-galleries";
import type { ParentPrincipal } from "./parent-principal";
import { signPreviewUrl, verifyPreviewUrl } from "./preview-urls";
import type { ParentPhoto } from "./schemas";

// Every query here is bounded by the principal's galleryIds (the child's own
// gallery and the job's group gallery, open now): anything else is 404, the
// same answer as an id that does not exist.

export const listParentGalleries = (db: Db, p: ParentPrincipal) => describeParentGalleries(db, p.galleryIds);

type PhotoRow = { id: string; galleryId: string; previewWidth: number | null; previewHeight: number | null; fileWidth: number | null; fileHeight: number | null; favourite: string | null };

/**
 * The original's pixel size, upright as its preview (the stored file may carry an
 * EXIF rotation): what a print's ppi is computed from. Only the size: the file
 * itself is never reachable from a gallery.
 */
export function originalSize(r: Pick<PhotoRow, "previewWidth" | "previewHeight" | "fileWidth" | "fileHeight">): { original_width: number; original_height: number } {
  const long = Math.max(r.fileWidth ?? 0, r.fileHeight ?? 0);
  const short = Math.min(r.fileWidth ?? 0, r.fileHeight ?? 0);
  const portrait = (r.previewHeight ?? 0) > (r.previewWidth ?? 0);
  return portrait ? { original_width: short, original_height: long } : { original_width: long, original_height: short };
}

const toParentPhoto = (p: ParentPrincipal) => (r: PhotoRow): ParentPhoto => ({
  id: r.id,
  gallery_id: r.galleryId,
  width: r.previewWidth ?? 0,
  height: r.previewHeight ?? 0,
  ...originalSize(r),
  preview_url: signPreviewUrl(r.id, p.subjectId),
  favourite: r.favourite !== null,
});

const photoColumns = {
  id: galleryPhotos.id,
  galleryId: galleryPhotos.galleryId,
  previewWidth: galleryPhotos.previewWidth,
  previewHeight: galleryPhotos.previewHeight,
  fileWidth: jobFiles.width,
  fileHeight: jobFiles.height,
  favourite: galleryFavourites.photoId,
};

const selectPhotos = (db: Db, p: ParentPrincipal) =>
  db
    .select(photoColumns)
    .from(galleryPhotos)
    .innerJoin(jobFiles, eq(jobFiles.id, galleryPhotos.jobFileId))
    .leftJoin(galleryFavourites, and(eq(galleryFavourites.photoId, galleryPhotos.id), eq(galleryFavourites.subjectId, p.subjectId)));

/** GET /v1/parent/galleries/{galleryId}/photos: the photos whose preview is ready, in capture order. */
export async function listGalleryPhotos(db: Db, p: ParentPrincipal, galleryId: string, page: { limit: number; offset: number }) {
  if (!p.galleryIds.includes(galleryId)) throw notFound("Gallery");
  const where = and(eq(galleryPhotos.galleryId, galleryId), isNotNull(galleryPhotos.previewKey));
  const [rows, [total]] = await Promise.all([
    selectPhotos(db, p).where(where).orderBy(asc(galleryPhotos.position), asc(galleryPhotos.id)).limit(page.limit).offset(page.offset),
    db.select({ n: count() }).from(galleryPhotos).where(where),
  ]);
  return { items: rows.map(toParentPhoto(p)), total: total?.n ?? 0 };
}

/** One photo the principal may see (with the job file it shows, which is never served), or 404. */
export async function requireVisiblePhoto(db: Db, p: ParentPrincipal, photoId: string) {
  const [photo] = await db
    .select({ id: galleryPhotos.id, accountId: galleryPhotos.accountId, jobFileId: galleryPhotos.jobFileId, previewWidth: galleryPhotos.previewWidth, previewHeight: galleryPhotos.previewHeight })
    .from(galleryPhotos)
    .where(and(eq(galleryPhotos.id, photoId), inArray(galleryPhotos.galleryId, p.galleryIds), isNotNull(galleryPhotos.previewKey)));
  if (!photo) throw notFound("Photo");
  return photo;
}

/** GET /v1/parent/photos/{photoId}: one photo, as the grid lists it. */
export async function getParentPhoto(db: Db, p: ParentPrincipal, photoId: string) {
  await requireVisiblePhoto(db, p, photoId);
  const [row] = await selectPhotos(db, p).where(eq(galleryPhotos.id, photoId));
  return toParentPhoto(p)(row!);
}

/** PUT /v1/parent/favourites/{photoId}: marked for this child's code (both parents share it). Repeating is harmless. */
export async function addFavourite(db: Db, p: ParentPrincipal, photoId: string) {
  const photo = await requireVisiblePhoto(db, p, photoId);
  await db.insert(galleryFavourites).values({ subjectId: p.subjectId, photoId, accountId: photo.accountId }).onConflictDoNothing();
  return { photo_id: photoId, favourite: true };
}

export async function removeFavourite(db: Db, p: ParentPrincipal, photoId: string) {
  await requireVisiblePhoto(db, p, photoId);
  await db.delete(galleryFavourites).where(and(eq(galleryFavourites.subjectId, p.subjectId), eq(galleryFavourites.photoId, photoId)));
  return { photo_id: photoId, favourite: false };
}

/** GET /v1/parent/favourites: this child's favourites among the photos open to it, in gallery order. */
export async function listFavourites(db: Db, p: ParentPrincipal, page: { limit: number; offset: number }) {
  const where = and(eq(galleryFavourites.subjectId, p.subjectId), inArray(galleryPhotos.galleryId, p.galleryIds), isNotNull(galleryPhotos.previewKey));
  const [rows, [total]] = await Promise.all([
    db
      .select(photoColumns)
      .from(galleryFavourites)
      .innerJoin(galleryPhotos, eq(galleryPhotos.id, galleryFavourites.photoId))
      .innerJoin(jobFiles, eq(jobFiles.id, galleryPhotos.jobFileId))
      .where(where)
      .orderBy(asc(galleryPhotos.galleryId), asc(galleryPhotos.position), asc(galleryPhotos.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(galleryFavourites).innerJoin(galleryPhotos, eq(galleryPhotos.id, galleryFavourites.photoId)).where(where),
  ]);
  return { items: rows.map(toParentPhoto(p)), total: total?.n ?? 0 };
}

/**
 * The preview file behind a signed preview URL, served only while the child the
 * URL was signed for can still open the photo's gallery. null: 404 (a bad
 * signature, another child's photo, a closed gallery all look alike).
 */
export async function previewFile(db: Db, photoId: string, params: URLSearchParams): Promise<{ body: Buffer; contentType: string; expires: number } | null> {
  const signed = verifyPreviewUrl(photoId, params);
  if (!signed) return null;
  const [photo] = await db
    .select({ previewKey: galleryPhotos.previewKey, galleryId: galleryPhotos.galleryId, accountId: galleries.accountId, jobId: galleries.jobId })
    .from(galleryPhotos)
    .innerJoin(galleries, eq(galleries.id, galleryPhotos.galleryId))
    .where(eq(galleryPhotos.id, photoId));
  if (!photo?.previewKey) return null;
  const open = await openGalleriesOf(db, { accountId: photo.accountId, jobId: photo.jobId, subjectId: signed.subjectId });
  if (!open.some((g) => g.id === photo.galleryId)) return null;
  const object = await storage().get(photo.previewKey);
  if (!object) return null;
  return { body: object.body, contentType: "image/jpeg", expires: Number(params.get("expires")) };
}
