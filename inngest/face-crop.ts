import { and, asc, eq } from "drizzle-orm";
import { getDb } from "@/lib/foundation/db/client";
import { faceCropItems, faceCropTasks } from "@/lib/foundation/db/schema";
import { defineJob } from "@/lib/domain/jobs/define-job";
import { warmUpFaces } from "@/lib/engines/ml/faces";
import { finishTask } from "@/lib/services/face-crop/finish-task";
import { processItem } from "@/lib/services/face-crop/process-item";
import { faceCropRequested } from "@/lib/domain/jobs/events";
import { TIME_LIMITS_MS } from "./time-limits";

/** Files per step: a restart redoes at most this many crops. */
const FILES_PER_STEP = 10;

const messageFor = (error: { name: string; message: string }) =>
  error.name === "JobTimeoutError" ? error.message : "The batch stopped because of an error on our side.";

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
  event: faceCropRequested,
  retries: 2,
  timeoutMs: TIME_LIMITS_MS.faceCrop,
  concurrency: 1,
  handler: async ({ event, step, signal }) => {
    const task = await step.run("load-task", async () => {
      const [row] = await (await getDb())
        .select()
        .from(faceCropTasks)
        .where(and(eq(faceCropTasks.id, event.data.taskId), eq(faceCropTasks.accountId, event.data.accountId)));
      if (!row) throw new Error("The task record was not found.");
      const items = await (await getDb())
        .select({ id: faceCropItems.id })
        .from(faceCropItems)
        .where(eq(faceCropItems.taskId, row.id))
        .orderBy(asc(faceCropItems.position));
      return { id: row.id, accountId: row.accountId, status: row.status, icpType: row.icpType, enhance: row.enhance, itemIds: items.map((i) => i.id) };
    });
    if (task.status === "completed" || task.status === "failed") return { skipped: task.status };
    await step.run("start", async () =>
      (await getDb()).update(faceCropTasks).set({ status: "running" }).where(and(eq(faceCropTasks.id, task.id), eq(faceCropTasks.status, "queued"))),
    );
    for (let at = 0; at < task.itemIds.length; at += FILES_PER_STEP) {
      const chunk = task.itemIds.slice(at, at + FILES_PER_STEP);
      await step.run(`crop-${at}`, async () => {
        const db = await getDb();
        for (const id of chunk) await processItem(db, task, id, { engineErrors: "throw", superResolution: true, signal });
        return chunk.length;
      });
    }
    const ended = await step.run("finish", async () => finishTask(await getDb(), { taskId: task.id, accountId: task.accountId, outcome: "completed" }));
    return { status: ended?.status, refunded: ended?.tokensRefunded };
  },
  onFailure: async ({ event, error, step }) => {
    await step.run("fail-and-refund", async () =>
      finishTask(await getDb(), { taskId: event.data.taskId, accountId: event.data.accountId, outcome: "failed", message: messageFor(error) }),
    );
  },
  warmUp: () => warmUpFaces({ atServerStart: true }),
});
