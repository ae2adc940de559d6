import { afterAll, describe, expect, it } from "vitest";
import sharp from "sharp";
import { eq } from "drizzle-orm";
import { getDb } from "@/lib/foundation/db/client";
import { jobRuns, jobSteps } from "@/lib/foundation/db/schema";
import { stopJobRunner } from "@/lib/domain/jobs/runner/runner-instance";
import { testAccount } from "../http";
import { waitFor } from "../jobs/runner-harness";
import { balanceOf, createJob, fixture, ledgerOf, pollJob, startTestRunner, stopAll, upload } from "../jobs/bg-remove-harness";

// No job stays `processing` with its tokens kept: past its time limit a job
// fails and is refunded, whether it is running or still waiting. The limit is
// lowered to 3 seconds for this file (read when the job module loads).
process.env.BG_REMOVE_TIME_LIMIT_SECONDS = "3";

afterAll(stopAll);

/** The job's run once the runner has recorded its end (just after the job row shows it). */
async function finishedRunOf(jobId: string) {
  const db = await getDb();
  return waitFor(async () => {
    const runs = await db.select().from(jobRuns);
    const run = runs.find((r) => (r.eventData as { jobId: string }).jobId === jobId)!;
    return run.status === "failed" || run.status === "completed" ? run : undefined;
  }, 20_000, "the run to end");
}

describe("time limit", () => {
  it("a job still running at its limit is abandoned, fails and is refunded", async () => {
    await startTestRunner({ timeoutGraceMs: 1_000 });
    const { token } = await testAccount({ tokens: 500 });
    // A large, high-detail job: loading the model and two passes take far longer than 3 s here.
    const big = await sharp(fixture("astronaut.png")).resize(2000, 2000).jpeg().toBuffer();
    const created = await createJob(token, { image_url: await upload(token, big, "big.jpg", "image/jpeg"), high_detail_mode: true });
    expect(created.status).toBe(202);
    // Polling gives up well before a full high-detail run could finish on this machine.
    const job = await pollJob(token, created.json.job_id, 30_000);
    expect(job).toMatchObject({ status: "failed", output_url: null, error_message: "The job did not finish within its time limit of 3 seconds." });
    expect(await balanceOf(token)).toBe(500);
    const refunds = (await ledgerOf(token)).filter((t) => t.type === "refund");
    expect(refunds).toHaveLength(1);
    expect(refunds[0].refund_of).toBe(created.json.wallet_transaction_id);
    const run = await finishedRunOf(created.json.job_id);
    expect(run).toMatchObject({ status: "failed", attempt: 1, lastError: { name: "JobTimeoutError" } });
  }, 60_000);

  it("a job that waited past its limit (no runner was up) fails without running and is refunded", async () => {
    await stopJobRunner({ drainMs: 0 });
    const { token } = await testAccount({ tokens: 500 });
    const small = await sharp(fixture("coffee.png")).resize(100).png().toBuffer();
    const created = await createJob(token, { image_url: await upload(token, small) });
    expect(created.status).toBe(202);
    await new Promise((r) => setTimeout(r, 3_500));
    expect((await pollJob(token, created.json.job_id, 0).catch(() => null))?.status).toBeUndefined(); // still processing
    await startTestRunner();
    const job = await pollJob(token, created.json.job_id, 20_000);
    expect(job).toMatchObject({ status: "failed", error_message: "The job did not finish within its time limit of 3 seconds." });
    expect(await balanceOf(token)).toBe(500);
    const run = await finishedRunOf(created.json.job_id);
    expect(run).toMatchObject({ status: "failed", attempt: 0 });
    const db = await getDb();
    expect((await db.select().from(jobSteps).where(eq(jobSteps.runId, run.id))).map((s) => s.stepId)).toEqual(["failure:fail-and-refund"]);
  }, 60_000);
});
