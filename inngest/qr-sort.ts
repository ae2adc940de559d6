import { defineJob } from "@/lib/domain/jobs/define-job";
import { qrSortRequested } from "@/lib/domain/jobs/events";
import { batchJob, inSteps } from "@/lib/services/billed-batch/batch-job";
import { learnFromPictureDay, pictureDaySubjects } from "@/lib/services/matching/picture-day-references";
import { failureMessage } from "@/lib/services/qr-sort/job-errors";
import { FRAMES_PER_STEP } from "@/lib/services/qr-sort/limits";
import { finishSort, loadSort, readFrames } from "@/lib/services/qr-sort/sort-task";
import { getDb } from "@/lib/foundation/db/client";

/**
 * A QR sort: the frames' cards and capture times are read in steps of ten, each
 * recorded as it is done (a restart never reads a finished frame again), then
 * the rules file every frame in one last step. Free, so a failure refunds
 * nothing: onFailure only marks the task failed with its reason.
 */
export const qrSort = defineJob({
  id: "qr-sort",
  name: "QR sort of a job's photos",
  retries: 2,
  timeoutMs: 2 * 3600_000,
  concurrency: 1,
  ...batchJob(qrSortRequested, {
    steps: { load: "load-sort", each: "read", finish: "file-frames", fail: "fail" },
    load: (db, { taskId, accountId }) => loadSort(db, taskId, accountId),
    missing: "The QR sort record was not found.",
    items: (sort) => sort.frameIds,
    perStep: FRAMES_PER_STEP,
    each: (db, sort, ids, signal) => readFrames(db, sort.id, ids, signal),
    finish: (db, { taskId }, outcome, message) => finishSort(db, taskId, outcome, message),
    failureMessage,
    // After the sort is complete (its results are already final): each run's frames become its
    // child's references where the agency learns from confirmed faces, ten children a step.
    afterFinish: async ({ step, batch, signal }) => {
      const learners = await step.run("picture-day-subjects", async () => pictureDaySubjects(await getDb(), batch.id));
      await inSteps(step, "learn-references", learners, FRAMES_PER_STEP, async (chunk) => learnFromPictureDay(await getDb(), batch.id, chunk, signal));
    },
  }),
});
