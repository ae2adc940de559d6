import { getDb } from "@/lib/foundation/db/client";
import { defineJob } from "@/lib/domain/jobs/define-job";
import { galleryFacesRequested } from "@/lib/domain/jobs/events";
import { FACES_PER_STEP, findGalleryFaces, galleryFilesWithoutFace } from "@/lib/services/orders/gallery-faces";
import { PREVIEW_MATTES_PER_STEP, galleryFilesWithoutPreviewMatte, preparePreviewMattes } from "@/lib/services/production/background-preview";

/**
 * A parent opened a child's gallery: find each photo's face ahead of the cart
 * (the crop starts from it), a few photos a step, so a print line opens at once
 * instead of waiting 0.2-1.6 s a photo for the face engine; and where the sheet
 * sells a print on a background, cut each photo out for the cart's background
 * preview (its preview matte), so the preview is a composite only instead of a
 * cut-out of seconds while the parent waits. Free; a failure only means the cart
 * finds the face, and the preview makes its matte, itself, as before this job.
 */
export const galleryFaces = defineJob({
  id: "gallery-faces",
  name: "Faces of a parent's gallery, ahead of the cart's crop",
  event: galleryFacesRequested,
  retries: 1,
  timeoutMs: 3600_000,
  // One at a time: it shares the machine with requests, and two parents of one
  // child opening the gallery together find each face once anyway.
  concurrency: 1,
  handler: async ({ event, step, signal }) => {
    const { accountId, jobId, galleryId } = event.data;
    const todo = await step.run("list-files", async () => galleryFilesWithoutFace(await getDb(), accountId, jobId, galleryId));
    let found = 0;
    for (let at = 0; at < todo.length; at += FACES_PER_STEP) {
      const chunk = todo.slice(at, at + FACES_PER_STEP);
      found += await step.run(`faces-${at}`, async () => findGalleryFaces(await getDb(), accountId, chunk, signal));
    }
    const mattes = await step.run("list-preview-mattes", async () => galleryFilesWithoutPreviewMatte(await getDb(), accountId, jobId, galleryId));
    let made = 0;
    for (let at = 0; at < mattes.length; at += PREVIEW_MATTES_PER_STEP) {
      const chunk = mattes.slice(at, at + PREVIEW_MATTES_PER_STEP);
      made += await step.run(`preview-mattes-${at}`, async () => preparePreviewMattes(await getDb(), accountId, chunk, signal));
    }
    return { looked_at: todo.length, found, preview_mattes: made };
  },
  onFailure: async () => {},
});
