import { InngestTestEngine } from "@inngest/test";
import { describe, expect, it } from "vitest";
import sharp from "sharp";
import { eq } from "drizzle-orm";
import { getDb } from "@/lib/foundation/db/client";
import { bgRemoveJobs } from "@/lib/foundation/db/schema";
import { bgRemove } from "@/inngest/bg-remove";
import { testAccount } from "../http";
import { balanceOf, createJob, fixture, ledgerOf, upload } from "./bg-remove-harness";

// The bg-remove Inngest function as Inngest would run it, through @inngest/test:
// real database, real storage, the real model. No embedded runner runs in this
// file, so the job rows created by the API are executed only by the test engine.

// A fresh engine per run: an engine keeps step results between its executions.
const engine = () => new InngestTestEngine({ function: bgRemove.fn });

async function acceptedJob(bytes: Buffer, body: Record<string, unknown> = {}) {
  const { token, account } = await testAccount({ tokens: 1000 });
  const created = await createJob(token, { image_url: await upload(token, bytes), ...body });
  expect(created.status).toBe(202);
  return { token, accountId: account.id, jobId: created.json.job_id as string, debitId: created.json.wallet_transaction_id as string };
}

const requested = (jobId: string, accountId: string, ts = Date.now()) =>
  [{ name: "bg-remove/job.requested", data: { jobId, accountId }, ts }] as [{ name: string; data: Record<string, unknown>; ts: number }];

describe("bg-remove Inngest function (@inngest/test)", () => {
  it("runs load-job, fetch-source, remove-background and complete-job, and completes the job", async () => {
    const small = await sharp(fixture("coffee.png")).resize(200).png().toBuffer();
    const { jobId, accountId } = await acceptedJob(small);
    const { result, ctx, error } = await engine().execute({ events: requested(jobId, accountId) });
    expect(error).toBeUndefined();
    expect(result).toMatchObject({ outputKey: expect.stringContaining(jobId), width: 200, height: 133, provider: "isnet-onnx" });
    const ids = (ctx.step.run as unknown as { mock: { calls: [string][] } }).mock.calls.map((c) => c[0]);
    expect([...new Set(ids)]).toEqual(["load-job", "fetch-source", "remove-background", "complete-job"]);
    const [row] = await (await getDb()).select().from(bgRemoveJobs).where(eq(bgRemoveJobs.id, jobId));
    expect(row).toMatchObject({ status: "completed", outputWidth: 200, outputHeight: 133, provider: "isnet-onnx" });
  }, 120_000);

  it("a failing step (the source is not a readable image) fails the run without retry", async () => {
    // A real JPEG cut off at 40% (accepted as a JPEG by its magic bytes): it cannot be decoded.
    const jpeg = await sharp(fixture("coffee.png")).jpeg().toBuffer();
    const broken = jpeg.subarray(0, Math.floor(jpeg.length * 0.4));
    const { jobId, accountId } = await acceptedJob(broken);
    const { error, ctx } = await engine().execute({ events: requested(jobId, accountId) });
    expect(error).toMatchObject({ name: "BgRemoveInputError", message: expect.stringMatching(/damaged|incomplete|cannot|could not/i) });
    const ids = (ctx.step.run as unknown as { mock: { calls: [string][] } }).mock.calls.map((c) => c[0]);
    expect(ids).toContain("remove-background");
    expect(ids).not.toContain("complete-job");
    // The run failed; the record is marked failed by the failure handler, not by the run.
    const [row] = await (await getDb()).select().from(bgRemoveJobs).where(eq(bgRemoveJobs.id, jobId));
    expect(row!.status).toBe("processing");
  }, 120_000);

  it("a run that starts after its time limit fails at once with JobTimeoutError (no retries)", async () => {
    const { jobId, accountId } = await acceptedJob(await sharp(fixture("coffee.png")).resize(64).png().toBuffer());
    const { error, ctx } = await engine().execute({ events: requested(jobId, accountId, Date.now() - bgRemove.timeoutMs - 1000) });
    expect(error).toMatchObject({ name: "JobTimeoutError", message: expect.stringMatching(/time limit of 10 minutes/) });
    expect(ctx.step.run).not.toHaveBeenCalled();
  });
});

describe("bg-remove failure handler (not run by @inngest/test, so called as Inngest calls it)", () => {
  // The onFailure Inngest registers for the function: it receives Inngest's
  // `inngest/function.failed` event wrapping the original one.
  const onFailure = bgRemove.fn.opts.onFailure!;
  const step = { run: async (_id: string, fn: () => unknown) => JSON.parse(JSON.stringify((await fn()) ?? null)) };
  const failedEvent = (jobId: string, accountId: string, error: { name: string; message: string }) => ({
    name: "inngest/function.failed",
    data: { function_id: "print-studio-bg-remove", run_id: "01TEST", error, event: { name: "bg-remove/job.requested", data: { jobId, accountId }, ts: Date.now() } },
  });

  it("marks the job failed with a message for people and refunds once, however often it runs", async () => {
    const { token, jobId, accountId, debitId } = await acceptedJob(await sharp(fixture("coffee.png")).resize(64).png().toBuffer());
    expect(await balanceOf(token)).toBe(850);
    const error = { name: "BgRemoveInputError", message: "The file is not an image we can read: send a JPEG, PNG, WebP, TIFF, GIF or AVIF image." };
    const ctx = { event: failedEvent(jobId, accountId, error), error: Object.assign(new Error(error.message), { name: error.name }), step, runId: "01TEST" };
    await onFailure(ctx as never);
    await onFailure(ctx as never);
    const [row] = await (await getDb()).select().from(bgRemoveJobs).where(eq(bgRemoveJobs.id, jobId));
    expect(row).toMatchObject({ status: "failed", errorMessage: error.message });
    expect(await balanceOf(token)).toBe(1000);
    const refunds = (await ledgerOf(token)).filter((e) => e.type === "refund");
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ amount: 150, refund_of: debitId, reference: jobId });
  });

  it("hides internal error text behind a generic message", async () => {
    const { jobId, accountId } = await acceptedJob(await sharp(fixture("coffee.png")).resize(64).png().toBuffer());
    const internal = { name: "TypeError", message: "Cannot read properties of undefined (reading 'buffer')" };
    await onFailure({ event: failedEvent(jobId, accountId, internal), error: Object.assign(new TypeError(internal.message)), step, runId: "01TEST" } as never);
    const [row] = await (await getDb()).select().from(bgRemoveJobs).where(eq(bgRemoveJobs.id, jobId));
    expect(row!.errorMessage).toBe("The background could not be removed because of an error on our side.");
  });

  it("leaves a completed job alone (a late failure never refunds a delivered result)", async () => {
    const { token, jobId, accountId } = await acceptedJob(await sharp(fixture("coffee.png")).resize(64).png().toBuffer());
    const db = await getDb();
    await db.update(bgRemoveJobs).set({ status: "completed", completedAt: new Date() }).where(eq(bgRemoveJobs.id, jobId));
    const timeout = { name: "JobTimeoutError", message: "The job did not finish within its time limit of 10 minutes." };
    await onFailure({ event: failedEvent(jobId, accountId, timeout), error: new Error(timeout.message), step, runId: "01TEST" } as never);
    const [row] = await db.select().from(bgRemoveJobs).where(eq(bgRemoveJobs.id, jobId));
    expect(row!.status).toBe("completed");
    expect(await balanceOf(token)).toBe(850);
  });

  it("does nothing for a job that was never committed (Inngest sent the event, the transaction rolled back)", async () => {
    const { account } = await testAccount();
    await expect(
      onFailure({ event: failedEvent("job_rolledback", account.id, { name: "Error", message: "x" }), error: new Error("x"), step, runId: "01TEST" } as never),
    ).resolves.toBeUndefined();
  });
});
