import { defineJob } from "@/lib/domain/jobs/define-job";
import { productionBatchRequested } from "@/lib/domain/jobs/events";
import { getDb } from "@/lib/foundation/db/client";
import { failBatch, filesToRender, finishBatch } from "@/lib/services/production/batch-steps";
import { batchFailureMessage } from "@/lib/services/production/job-errors";
import { renderPrintFiles } from "@/lib/services/production/render-print-files";
import { PRINTS_PER_STEP } from "@/lib/services/production/values";

/**
 * A lab batch: its print files rendered from the originals and preflighted a few
 * a step (each file is written and recorded as it is done, and a step skips files
 * already rendered or held, so a restart renders nothing twice), then the batch is
 * ready. Free: the sale paid for it; a failure marks the batch failed and keeps what
 * was rendered.
 */
export const productionBatch = defineJob({
  id: "production-batch",
  name: "Print files of a lab batch",
  event: productionBatchRequested,
  retries: 2,
  timeoutMs: 4 * 3600_000,
  concurrency: 1,
  handler: async ({ event, step, signal }) => {
    const { accountId, batchId } = event.data;
    const ids = await step.run("list-files", async () => filesToRender(await getDb(), accountId, batchId));
    let rendered = 0;
    for (let at = 0; at < ids.length; at += PRINTS_PER_STEP) {
      const chunk = ids.slice(at, at + PRINTS_PER_STEP);
      rendered += await step.run(`render-${at}`, async () => renderPrintFiles(await getDb(), accountId, chunk, signal));
    }
    const status = await step.run("finish", async () => finishBatch(await getDb(), accountId, batchId));
    return { rendered, status };
  },
  onFailure: async ({ event, error }) => failBatch(await getDb(), event.data.accountId, event.data.batchId, batchFailureMessage(error)),
});
