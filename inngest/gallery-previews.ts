import { getDb } from "@/lib/foundation/db/client";
import { defineJob } from "@/lib/domain/jobs/define-job";
import { galleryPreviewsRequested } from "@/lib/domain/jobs/events";
import { PREVIEWS_PER_STEP, filesNeedingPreviews, renderPreviews } from "@/lib/services/galleries/render-previews";

/**
 * A published job's gallery previews: every photo that lacks one with the
 * studio's current watermark, a few files a step (each step's previews are
 * stored and recorded as it ends, so a restart never renders them again).
 * Free: a failure refunds nothing, and the photos it did not reach stay hidden
 * from parents until the next publish renders them.
 */
export const galleryPreviews = defineJob({
  id: "gallery-previews",
  name: "Watermarked previews of a job's galleries",
  event: galleryPreviewsRequested,
  retries: 2,
  timeoutMs: 2 * 3600_000,
  concurrency: 1,
  handler: async ({ event, step, signal }) => {
    const { accountId, jobId } = event.data;
    const todo = await step.run("list-files", async () => filesNeedingPreviews(await getDb(), accountId, jobId));
    let rendered = 0;
    for (let at = 0; at < todo.fileIds.length; at += PREVIEWS_PER_STEP) {
      const chunk = todo.fileIds.slice(at, at + PREVIEWS_PER_STEP);
      rendered += await step.run(`render-${at}`, async () => renderPreviews(await getDb(), accountId, jobId, chunk, signal));
    }
    return { rendered };
  },
  onFailure: async () => {},
});
