import sharp from "sharp";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { jobFiles, studioBackgrounds } from "@/lib/foundation/db/schema";
import { notFound } from "@/lib/foundation/http/api-error";
import { storage } from "@/lib/domain/storage";
import { compositeOnBackdrop } from "@/lib/engines/imaging/composite-background";
import type { ParentPrincipal } from "@/lib/services/galleries/parent-principal";
import { requireVisiblePhoto } from "@/lib/services/galleries/parent-photos";
import { watermarkOf } from "@/lib/services/galleries/settings";
import { PREVIEW_MAX_PX, renderWatermarkedPreview } from "@/lib/services/galleries/watermark";
import { preflightConfig } from "@/lib/services/preflight/preflight-config";
import { photoMatte } from "./person-matte";
import { backdropOf } from "./render-print-files";

/**
 * GET /v1/parent/photos/{photoId}/backgrounds/{backgroundId}: the child composited
 * onto one of the studio's backgrounds, as the parent's storefront shows it: at
 * preview size (at most PREVIEW_MAX_PX), with the studio's watermark drawn in, JPEG.
 * The person matte is the photo's `preview` one, made once (the first ask waits for
 * the engine, seconds) and kept; every later background is a composite only. A photo
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
  // The original (never the watermarked preview: the cut-out would keep the watermark) at preview size, upright.
  const small = await sharp(original.body, { failOn: "none", limitInputPixels: maxPixels })
    .rotate()
    .resize(PREVIEW_MAX_PX, PREVIEW_MAX_PX, { fit: "inside", withoutEnlargement: true })
    .toColourspace("srgb")
    .removeAlpha()
    .png({ compressionLevel: 1 })
    .toBuffer();
  const matte = await photoMatte(db, photo.accountId, photo.jobFileId, small, undefined, "preview");
  const composite = await compositeOnBackdrop(small, matte.matte, backdrop, maxPixels);
  const { watermark } = await watermarkOf(db, photo.accountId);
  return (await renderWatermarkedPreview(composite, watermark)).jpeg;
}
