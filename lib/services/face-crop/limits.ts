/**
 * Batch limits of Face Crop (docs/api.md, "Studio: Face Crop").
 *
 * - URL form: 1 to 20 URLs, always answered at once (200): 20 photos of up to a few
 *   megapixels crop in well under the 30 s a client waits.
 * - Upload form: 1 to 200 `file[]` parts and at most 400 MB a request. Up to
 *   SYNC_MAX_FILES files and SYNC_MAX_MEGAPIXELS in total are cropped at once (200);
 *   anything larger becomes a task (202). Detection and cropping cost about
 *   0.1 s per megapixel of source on these 2-core machines (bench/face-crop-bench.ts),
 *   so the sync limits keep a request under about 5 s.
 */
export const MAX_URLS = 20;
export const MAX_UPLOAD_FILES = 200;
export const MAX_UPLOAD_BYTES = 400 * 1024 * 1024;
export const SYNC_MAX_FILES = 8;
export const SYNC_MAX_MEGAPIXELS = 50;
