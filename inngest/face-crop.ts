import { defineJob } from "@/lib/domain/jobs/define-job";
import { faceCropRequested } from "@/lib/domain/jobs/events";
import { warmUpFaces } from "@/lib/engines/ml/faces";
import { batchJob } from "@/lib/services/billed-batch/batch-job";
import { finishTask } from "@/lib/services/face-crop/finish-task";
import { failureMessage } from "@/lib/services/face-crop/job-errors";
import { loadCropTask, markCropTaskRunning } from "@/lib/services/face-crop/load-task";
import { processItem } from "@/lib/services/face-crop/process-item";
import { TIME_LIMITS_MS } from "./time-limits";

/**
 * A Face Crop batch task: the files are cropped in steps of ten, each file
 * recorded as it is done (a restart resumes after the last finished step and
 * never crops a finished file again), then the task ends with one refund for
 * every file that failed. After the last failed attempt, or past the time
 * limit, onFailure fails what is left and refunds it, in the same single refund.
 */
export const faceCrop = defineJob({
  id: "face-crop",
  name: "Face crop batch",
  retries: 2,
  timeoutMs: TIME_LIMITS_MS.faceCrop,
  concurrency: 1,
  ...batchJob(faceCropRequested, {
    steps: { load: "load-task", start: "start", each: "crop", finish: "finish", fail: "fail-and-refund" },
    load: (db, { taskId, accountId }) => loadCropTask(db, taskId, accountId),
    missing: "The task record was not found.",
    start: (db, task) => markCropTaskRunning(db, task.id),
    items: (task) => task.itemIds,
    perStep: 10,
    each: async (db, task, ids, signal) => {
      for (const id of ids) await processItem(db, task, id, { engineErrors: "throw", superResolution: true, signal });
    },
    finish: (db, { taskId, accountId }, outcome, message) => finishTask(db, { taskId, accountId, outcome, message }),
    failureMessage,
  }),
  warmUp: () => warmUpFaces({ atServerStart: true }),
});
