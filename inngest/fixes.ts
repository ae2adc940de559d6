import { getDb } from "@/lib/foundation/db/client";
import { defineJob } from "@/lib/domain/jobs/define-job";
import { failFixJob, moveFixJob } from "@/lib/services/fixes/finish-job";
import { chargedJobFailure } from "@/lib/services/billed-job/charged-job-failure";
import { failureMessage } from "@/lib/services/fixes/job-errors";
import { finishFixJob, loadFixJob, produceOutput, stageForReview } from "@/lib/services/fixes/fix-job-steps";
import { aiFixApproved, aiFixRequested } from "@/lib/domain/jobs/events";
import { TIME_LIMITS_MS } from "./time-limits";

/** Both halves end the same way on failure: failed, a message for people, one refund. */
const failAndRefund = chargedJobFailure(failureMessage, (db, { jobId, accountId }: { jobId: string; accountId: string }, message) => failFixJob(db, { jobId, accountId, message }));

/**
 * An AI fix job: analyzing -> applying -> completed | failed. With
 * options.review the run stops at awaiting_approval after staging the result
 * and its before/after pictures; approval starts aiFixApplyApproved below.
 * Every side effect is a step with a stable id (a retry resumes after the
 * last finished one); after the last failed attempt, or past the time limit,
 * the failure handler marks the job failed and refunds it once.
 */
export const aiFix = defineJob({
  id: "ai-fix",
  name: "AI fix job",
  event: aiFixRequested,
  retries: 1,
  timeoutMs: TIME_LIMITS_MS.aiFix,
  concurrency: 2,
  handler: async ({ event, step, signal }) => {
    const job = await step.run("load-job", async () => loadFixJob(await getDb(), event.data.jobId, event.data.accountId));
    if (job.status !== "analyzing" && job.status !== "applying") return { skipped: job.status };
    if (job.review) {
      const staged = await step.run("stage-for-review", async () => stageForReview(await getDb(), job, signal));
      return { awaitingApproval: staged.moved };
    }
    await step.run("start-applying", async () => moveFixJob(await getDb(), job.id, ["analyzing"], "applying"));
    const done = await step.run("apply-fixes", async () => produceOutput(await getDb(), job, signal));
    const recheck = await step.run("recheck-and-complete", async () => finishFixJob(await getDb(), job, done, signal));
    return { outputKey: done.outputKey, recheck };
  },
  onFailure: failAndRefund,
});

/** The second half of a reviewed job, after POST .../approve: apply the approved fixes, re-check, complete. */
export const aiFixApplyApproved = defineJob({
  id: "ai-fix-approved",
  name: "AI fix job (approved)",
  event: aiFixApproved,
  retries: 1,
  timeoutMs: TIME_LIMITS_MS.aiFix,
  concurrency: 2,
  handler: async ({ event, step, signal }) => {
    const job = await step.run("load-job", async () => loadFixJob(await getDb(), event.data.jobId, event.data.accountId));
    if (job.status !== "applying") return { skipped: job.status };
    const done = await step.run("apply-approved", async () => produceOutput(await getDb(), job, signal));
    const recheck = await step.run("recheck-and-complete", async () => finishFixJob(await getDb(), job, done, signal));
    return { outputKey: done.outputKey, recheck };
  },
  onFailure: failAndRefund,
});
