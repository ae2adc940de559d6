import { and, eq, inArray, isNull, like, not, or } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { galleries, galleryPhotos, jobFiles } from "@/lib/foundation/db/schema";
import { storage } from "@/lib/domain/storage";
import { watermarkOf } from "./settings";
import { renderWatermarkedPreview } from "./watermark";

/** Photos one job step renders: a restart redoes at most this many. */
export const PREVIEWS_PER_STEP = 8;

/** Where a file's preview lives: one per file and watermark version, shared by every gallery showing the file. */
export const previewKeyOf = (accountId: string, jobId: number, fileId: number, version: number) => `galleries/${accountId}/job-${jobId}/${fileId}-w${version}.jpg`;

const jobGalleryIds = (db: Db, accountId: string, jobId: number) =>
  db
    .select({ id: galleries.id })
    .from(galleries)
    .where(and(eq(galleries.accountId, accountId), eq(galleries.jobId, jobId)));

/** The job's files whose gallery photos lack a preview with the studio's current watermark. */
export async function filesNeedingPreviews(db: Db, accountId: string, jobId: number): Promise<{ fileIds: number[]; version: number }> {
  const { version } = await watermarkOf(db, accountId);
  const rows = await db
    .selectDistinct({ fileId: galleryPhotos.jobFileId })
    .from(galleryPhotos)
    .where(and(inArray(galleryPhotos.galleryId, jobGalleryIds(db, accountId, jobId)), or(isNull(galleryPhotos.previewKey), not(like(galleryPhotos.previewKey, `%-w${version}.jpg`)))))
    .orderBy(galleryPhotos.jobFileId);
  return { fileIds: rows.map((r) => r.fileId), version };
}

/**
 * Renders these files' previews (at most 1,200 px, watermarked) and points
 * their gallery photos at them; an older preview of a file is deleted once
 * replaced. A file gone from storage is skipped (its photo stays without a
 * preview, which parents never see). Safe to repeat.
 */
export async function renderPreviews(db: Db, accountId: string, jobId: number, fileIds: number[], signal?: AbortSignal): Promise<number> {
  if (fileIds.length === 0) return 0;
  const { watermark, version } = await watermarkOf(db, accountId);
  const files = await db
    .select({ id: jobFiles.id, storageKey: jobFiles.storageKey })
    .from(jobFiles)
    .where(and(eq(jobFiles.accountId, accountId), eq(jobFiles.jobId, jobId), inArray(jobFiles.id, fileIds)));
  let rendered = 0;
  for (const file of files) {
    signal?.throwIfAborted();
    const original = await storage().get(file.storageKey);
    if (!original) continue;
    const preview = await renderWatermarkedPreview(original.body, watermark);
    const key = previewKeyOf(accountId, jobId, file.id, version);
    await storage().put(key, preview.jpeg, "image/jpeg");
    const where = and(eq(galleryPhotos.jobFileId, file.id), inArray(galleryPhotos.galleryId, jobGalleryIds(db, accountId, jobId)));
    const old = await db.selectDistinct({ key: galleryPhotos.previewKey }).from(galleryPhotos).where(where);
    await db.update(galleryPhotos).set({ previewKey: key, previewWidth: preview.width, previewHeight: preview.height }).where(where);
    for (const o of old) if (o.key && o.key !== key) await storage().delete(o.key);
    rendered++;
  }
  return rendered;
}
