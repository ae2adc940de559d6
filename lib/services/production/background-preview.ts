import sharp from "sharp";
import { and, asc, eq, isNotNull, isNull } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { galleryPhotos, jobFiles, photoMattes, studioBackgrounds } from "@/lib/foundation/db/schema";
import { notFound } from "@/lib/foundation/http/api-error";
import { storage } from "@/lib/domain/storage";
import { compositeOnBackdrop } from "@/lib/engines/imaging/composite-background";
import type { ParentPrincipal } from "@/lib/services/galleries/parent-principal";
import { requireVisiblePhoto } from "@/lib/services/galleries/parent-photos";
import { watermarkOf } from "@/lib/services/galleries/settings";
import { PREVIEW_MAX_PX, renderWatermarkedPreview } from "@/lib/services/galleries/watermark";
import { preflightConfig } from "@/lib/services/preflight/preflight-config";
import { sheetForJob } from "@/lib/services/orders/price-sheets";
import { photoMatte } from "./person-matte";
import { backdropOf } from "./render-print-files";

/**
 * GET /v1/parent/photos/{photoId}/backgrounds/{backgroundId}: the child composited
 * onto one of the studio's backgrounds, as the parent's storefront shows it: at
 * preview size (at most PREVIEW_MAX_PX), with the studio's watermark drawn in, JPEG.
 * The person matte is the photo's `preview` one, made once and kept: ahead, by the job
 * that runs when a parent opens the gallery (preparePreviewMattes), else by the first ask
 * (which then waits for the engine, seconds); every later background is a composite only. A photo
 * the token does not open, or a background not the photo's studio's, is 404.
 */
export async function backgroundPreview(db: Db, p: ParentPrincipal, photoId: string, backgroundId: string): Promise<Buffer> {
  const photo = await requireVisiblePhoto(db, p, photoId);
  const [background] = await db
    .select()
    .from(studioBackgrounds)
    .where(and(eq(studioBackgrounds.id, backgroundId), eq(studioBackgrounds.accountId, photo.accountId)));
  const backdrop = await backdropOf(background ?? null);
  if (!backdrop) throw notFound("Background");
  const [file] = await db.select({ storageKey: jobFiles.storageKey }).from(jobFiles).where(eq(jobFiles.id, photo.jobFileId));
  const original = file ? await storage().get(file.storageKey) : null;
  if (!original) throw notFound("Photo");
  const { PREFLIGHT_MAX_PIXELS: maxPixels } = preflightConfig();
  const small = await previewSource(original.body, maxPixels);
  const matte = await photoMatte(db, photo.accountId, photo.jobFileId, small, undefined, "preview");
  const composite = await compositeOnBackdrop(small, matte.matte, backdrop, maxPixels);
  const { watermark } = await watermarkOf(db, photo.accountId);
  return (await renderWatermarkedPreview(composite, watermark)).jpeg;
}

/** The original (never the watermarked preview: the cut-out would keep the watermark) at preview size, upright, sRGB: what the preview matte is made from and composited on. */
async function previewSource(original: Buffer, maxPixels: number): Promise<Buffer> {
  return sharp(original, { failOn: "none", limitInputPixels: maxPixels })
    .rotate()
    .resize(PREVIEW_MAX_PX, PREVIEW_MAX_PX, { fit: "inside", withoutEnlargement: true })
    .toColourspace("srgb")
    .removeAlpha()
    .png({ compressionLevel: 1 })
    .toBuffer();
}

/** How many photos one step of inngest/gallery-faces.ts cuts out for the preview (a cut-out takes seconds). */
export const PREVIEW_MATTES_PER_STEP = 2;

/**
 * The job files of a gallery with a preview (what parents see) and no preview matte yet, in
 * the gallery's order, when a parent can ask for a background preview there: the job's price
 * sheet has a print that allows backgrounds and the studio keeps at least one. None otherwise.
 */
export async function galleryFilesWithoutPreviewMatte(db: Db, accountId: string, jobId: number, galleryId: string): Promise<number[]> {
  const sheet = await sheetForJob(db, accountId, jobId);
  if (!sheet?.items.some((i) => i.kind === "print" && i.allow_backgrounds)) return [];
  const [background] = await db.select({ id: studioBackgrounds.id }).from(studioBackgrounds).where(eq(studioBackgrounds.accountId, accountId)).limit(1);
  if (!background) return [];
  const rows = await db
    .select({ jobFileId: galleryPhotos.jobFileId })
    .from(galleryPhotos)
    .leftJoin(photoMattes, and(eq(photoMattes.jobFileId, galleryPhotos.jobFileId), eq(photoMattes.accountId, accountId), eq(photoMattes.scale, "preview")))
    .where(and(eq(galleryPhotos.galleryId, galleryId), eq(galleryPhotos.accountId, accountId), isNotNull(galleryPhotos.previewKey), isNull(photoMattes.id)))
    .orderBy(asc(galleryPhotos.position), asc(galleryPhotos.id));
  return [...new Set(rows.map((r) => r.jobFileId))];
}

/**
 * Makes and keeps each file's preview matte, as the preview route would on its first ask
 * (person-matte.ts: the same rows and files, shared with a parent's request running at the
 * same time), so that request only composites. Returns how many files have one now.
 */
export async function preparePreviewMattes(db: Db, accountId: string, jobFileIds: number[], signal?: AbortSignal): Promise<number> {
  const { PREFLIGHT_MAX_PIXELS: maxPixels } = preflightConfig();
  let made = 0;
  for (const id of jobFileIds) {
    signal?.throwIfAborted();
    const [file] = await db.select({ storageKey: jobFiles.storageKey }).from(jobFiles).where(and(eq(jobFiles.id, id), eq(jobFiles.accountId, accountId)));
    const original = file ? await storage().get(file.storageKey) : null;
    if (!original) continue;
    await photoMatte(db, accountId, id, await previewSource(original.body, maxPixels), signal, "preview");
    made++;
  }
  return made;
}
