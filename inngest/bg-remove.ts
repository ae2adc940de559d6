import { getDb } from "@/lib/foundation/db/client";
import { storage } from "@/lib/domain/storage";
import { defineJob } from "@/lib/domain/jobs/define-job";
import { cutOutJob } from "@/lib/services/bg-remove/cut-out-job";
import { fetchJobSource } from "@/lib/services/bg-remove/fetch-job-source";
import { completeBgRemoveJob, failBgRemoveJob } from "@/lib/services/bg-remove/finish-job";
import { failureMessage } from "@/lib/services/bg-remove/job-errors";
import { loadBgRemoveJob } from "@/lib/services/bg-remove/load-job";
import { chargedJobFailure } from "@/lib/services/billed-job/charged-job-failure";
import { bgRemovalProvider } from "@/lib/services/bg-remove/provider";
import { bgRemoveRequested } from "@/lib/domain/jobs/events";
import { logger } from "@/lib/foundation/log/logger";
import { jobSteps, stepTimer } from "@/lib/services/bg-remove/job-timings";
import { TIME_LIMITS_MS } from "./time-limits";

/**
 * Background removal: load the job, fetch the source, cut it out, record the result. Each
 * side effect is a step with a stable id, so a retry or a restart resumes
 * after the last finished step (the image is fetched once, the model runs once
 * per successful attempt). After the last failed attempt, or past the time
 * limit, onFailure marks the job failed and refunds its 150 tokens.
 */
export const bgRemove = defineJob({
  id: "bg-remove",
  name: "Background removal",
  event: bgRemoveRequested,
  retries: 2,
  timeoutMs: TIME_LIMITS_MS.bgRemove,
  handler: async ({ event, step, signal }) => {
    const loadStarted = performance.now();
    // A step, so a replay (Inngest re-enters the handler after every step) sees
    // the job as it was when the run began, not as later steps left it.
    const job = await step.run("load-job", async () => loadBgRemoveJob(await getDb(), event.data.jobId, event.data.accountId));
    if (job.status === "completed" || job.status === "failed") return { skipped: job.status };
    const loadJobMs = Math.round(performance.now() - loadStarted);

    const time = stepTimer({ loadJob: loadJobMs });
    const source = await time("fetchSource", step.run("fetch-source", () => fetchJobSource(job, signal)));
    const cut = await time("removeBackground", step.run("remove-background", () => cutOutJob(job, source.key, signal)));
    // The copy goes before the job reads "completed", so a caller who sees the result
    // never finds our copy of their source still stored (later replays skip the steps that read it).
    if (source.copied) await time("deleteSourceCopy", step.run("delete-source-copy", () => storage().delete(source.key)));
    await time("completeJob", step.run("complete-job", async () => completeBgRemoveJob(await getDb(), job.id, cut)));
    logger().info(
      { job_id: job.id, account_id: job.accountId, subject_type: job.subjectType, width: cut.width, height: cut.height, steps_ms: jobSteps(time.ms, cut.timingsMs) },
      "background removal",
    );
    return { outputKey: cut.key, width: cut.width, height: cut.height, provider: cut.provider, timingsMs: cut.timingsMs };
  },
  onFailure: chargedJobFailure(failureMessage, (db, { jobId, accountId }, message) => failBgRemoveJob(db, { jobId, accountId, message })),
  warmUp: () => bgRemovalProvider().warmUp(),
});
