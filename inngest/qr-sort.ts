import { getDb } from "@/lib/foundation/db/client";
import { defineJob } from "@/lib/domain/jobs/define-job";
import { qrSortRequested } from "@/lib/domain/jobs/events";
import { FRAMES_PER_STEP } from "@/lib/services/qr-sort/limits";
import { finishSort, loadSort, readFrames } from "@/lib/services/qr-sort/sort-task";
import { learnFromPictureDay, pictureDaySubjects } from "@/lib/services/matching/picture-day-references";

/**
 * A QR sort: the frames' cards and capture times are read in steps of ten, each
 * recorded as it is done (a restart never reads a finished frame again), then
 * the rules file every frame in one last step. Free, so a failure refunds
 * nothing: onFailure only marks the task failed with its reason.
 */
export const qrSort = defineJob({
  id: "qr-sort",
  name: "QR sort of a job's photos",
  event: qrSortRequested,
  retries: 2,
  timeoutMs: 2 * 3600_000,
  concurrency: 1,
  handler: async ({ event, step, signal }) => {
    const loaded = await step.run("load-sort", async () => {
      const found = await loadSort(await getDb(), event.data.taskId, event.data.accountId);
      if (!found) throw new Error("The QR sort record was not found.");
      return { id: found.task.id, status: found.task.status, frameIds: found.frameIds };
    });
    if (loaded.status === "completed" || loaded.status === "failed") return { skipped: loaded.status };
    for (let at = 0; at < loaded.frameIds.length; at += FRAMES_PER_STEP) {
      const chunk = loaded.frameIds.slice(at, at + FRAMES_PER_STEP);
      await step.run(`read-${at}`, async () => {
        await readFrames(await getDb(), loaded.id, chunk, signal);
        return chunk.length;
      });
    }
    const ended = await step.run("file-frames", async () => finishSort(await getDb(), loaded.id, "completed"));
    // After the sort is complete (its results are already final): each run's frames become its
    // child's references where the agency learns from confirmed faces, ten children a step.
    const learners = await step.run("picture-day-subjects", async () => pictureDaySubjects(await getDb(), loaded.id));
    for (let at = 0; at < learners.length; at += FRAMES_PER_STEP) {
      const chunk = learners.slice(at, at + FRAMES_PER_STEP);
      await step.run(`learn-references-${at}`, async () => learnFromPictureDay(await getDb(), loaded.id, chunk, signal));
    }
    return { status: ended?.status };
  },
  onFailure: async ({ event, error, step }) => {
    await step.run("fail", async () => finishSort(await getDb(), event.data.taskId, "failed", error.name === "JobTimeoutError" ? error.message : undefined));
  },
});
