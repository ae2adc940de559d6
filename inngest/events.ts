import { eventType } from "inngest";
import { z } from "zod";

/**
 * Every event that starts async work, each with its zod schema. Events carry
 * ids only: the job row is the source of truth, so a replayed or late event
 * cannot carry stale options.
 */

export const bgRemoveRequested = eventType("bg-remove/job.requested", {
  schema: z.object({ jobId: z.string().startsWith("job_"), accountId: z.string().min(1) }),
});

export const faceCropRequested = eventType("face-crop/task.requested", {
  schema: z.object({ taskId: z.string().startsWith("task_"), accountId: z.string().min(1) }),
});

/** The catalogue startJob() validates against. Add new events here. */
export const jobEvents = [bgRemoveRequested, faceCropRequested] as const;
