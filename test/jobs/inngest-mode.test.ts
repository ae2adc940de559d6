import { afterAll, beforeAll, describe, expect, it } from "vitest";
import sharp from "sharp";
import { eq } from "drizzle-orm";
import { getDb } from "@/lib/foundation/db/client";
import { bgRemoveJobs, jobRuns } from "@/lib/foundation/db/schema";
import { jobsMode } from "@/lib/domain/jobs/jobs-mode";
import { testAccount } from "../http";
import { executeLikeInngest as executeInngestSteps, startFakeEventApi, type ReceivedEvents } from "./inngest-harness";

// Inngest mode without an Inngest server (none can be installed here): a small
// local HTTP server takes the events the app sends (the dev server's event
// API), and the test drives /api/inngest the way Inngest's executor does,
// step by step with the step state it would keep. The Inngest client reads its
// environment when created, so everything app-side is imported after it is set.

let failSends = false;
let eventApi: Awaited<ReturnType<typeof startFakeEventApi>>;
let received: ReceivedEvents;

beforeAll(async () => {
  eventApi = await startFakeEventApi(() => failSends);
  received = eventApi.received;
  process.env.INNGEST_DEV = eventApi.url;
});
afterAll(async () => {
  delete process.env.INNGEST_DEV;
  await eventApi.close();
});

const app = async () => ({
  inngestRoute: await import("@/app/api/inngest/route"),
  harness: await import("./bg-remove-harness"),
});

/** Drives the app's /api/inngest route in-process, the way Inngest's executor does. */
async function executeLikeInngest(fnId: string, event: Record<string, unknown>) {
  const { inngestRoute } = await app();
  const post = (query: string, body: string) =>
    inngestRoute.POST(new Request(`http://localhost:3000/api/inngest?${query}`, { method: "POST", body, headers: { "content-type": "application/json" } }), {} as never);
  return executeInngestSteps(post, fnId, event);
}

describe("choosing the runtime", () => {
  it("uses Inngest when any Inngest setting is present, the embedded runner otherwise", () => {
    expect(jobsMode({})).toBe("embedded");
    expect(jobsMode({ INNGEST_DEV: "0" })).toBe("embedded");
    expect(jobsMode({ INNGEST_DEV: "1" })).toBe("inngest");
    expect(jobsMode({ INNGEST_DEV: "http://localhost:8288" })).toBe("inngest");
    expect(jobsMode({ INNGEST_BASE_URL: "https://inngest.internal" })).toBe("inngest");
    expect(jobsMode({ INNGEST_EVENT_KEY: "k" })).toBe("inngest");
    expect(jobsMode({ INNGEST_SIGNING_KEY: "signkey-prod-abc" })).toBe("inngest");
  });
});

describe("Inngest mode", () => {
  it("serves the functions at /api/inngest (and answers 404 there in embedded mode)", async () => {
    const { inngestRoute } = await app();
    const res = await inngestRoute.GET(new Request("http://localhost:3000/api/inngest"), {} as never);
    expect(res.status).toBe(200);
    // Every job and its failure handler (Inngest registers onFailure as a function of its own).
    const { jobFunctions } = await import("@/inngest/functions");
    expect(await res.json()).toMatchObject({ mode: "dev", function_count: 2 * jobFunctions.length });

    const saved = process.env.INNGEST_DEV;
    delete process.env.INNGEST_DEV;
    try {
      const off = await inngestRoute.GET(new Request("http://localhost:3000/api/inngest"), {} as never);
      expect(off.status).toBe(404);
      expect((await off.json()).error).toBe("NOT_FOUND");
    } finally {
      process.env.INNGEST_DEV = saved;
    }

    // A web app whose jobs run in the worker app offers nothing to Inngest.
    process.env.INNGEST_SERVE = "off";
    try {
      const served = await inngestRoute.GET(new Request("http://localhost:3000/api/inngest"), {} as never);
      expect(served.status).toBe(404);
      expect((await served.json()).message).toMatch(/worker app/);
    } finally {
      delete process.env.INNGEST_SERVE;
    }
  });

  it("accepting a job sends its event to Inngest in the job's transaction; Inngest's calls then run it to completion", async () => {
    const { harness } = await app();
    const { token, account } = await testAccount({ tokens: 500 });
    const small = await sharp(harness.fixture("coffee.png")).resize(160).png().toBuffer();
    received.length = 0;
    const created = await harness.createJob(token, { image_url: await harness.upload(token, small) });
    expect(created.status).toBe(202);
    expect(received).toHaveLength(1);
    expect(received[0]!.path).toMatch(/^\/e\//);
    const [event] = received[0]!.body as [{ id: string; name: string; data: unknown; ts: number }];
    expect(event).toMatchObject({ name: "bg-remove/job.requested", data: { jobId: created.json.job_id, accountId: account.id }, id: expect.stringMatching(/^evt_/) });
    const db = await getDb();
    expect(await db.select().from(jobRuns)).toHaveLength(0); // nothing for the embedded runner

    const run = await executeLikeInngest("print-studio-bg-remove", event);
    expect(run.error).toBeUndefined();
    expect(run.ran).toEqual(["StepRun:load-job", "StepRun:fetch-source", "StepRun:remove-background", "StepRun:complete-job"]);
    expect(run.result).toMatchObject({ width: 160, provider: "isnet-onnx" });
    const job = await harness.getJob(token, created.json.job_id);
    expect(job.json).toMatchObject({ status: "completed", output_url: expect.stringContaining("/files/bg-remove/") });
    expect(await harness.balanceOf(token)).toBe(350);
  }, 180_000);

  it("a failed run ends in Inngest's failure call, which marks the job failed and refunds", async () => {
    const { harness } = await app();
    const { token, account } = await testAccount({ tokens: 500 });
    const jpeg = await sharp(harness.fixture("coffee.png")).jpeg().toBuffer();
    const created = await harness.createJob(token, { image_url: await harness.upload(token, jpeg.subarray(0, 3000), "cut.jpg", "image/jpeg") });
    const event = (received.at(-1)!.body as [Record<string, unknown>])[0]!;
    expect(event.data).toEqual({ jobId: created.json.job_id, accountId: account.id });

    const run = await executeLikeInngest("print-studio-bg-remove", event);
    expect(run.error).toMatchObject({ name: "BgRemoveInputError" });
    // Inngest then invokes the failure function with `inngest/function.failed`.
    const failed = { name: "inngest/function.failed", data: { function_id: "print-studio-bg-remove", run_id: "01INNGESTRUN", error: run.error, event }, ts: Date.now(), id: "evt_failed" };
    const failure = await executeLikeInngest("print-studio-bg-remove-failure", failed);
    expect(failure.ran).toEqual(["StepRun:fail-and-refund"]);
    const job = await harness.getJob(token, created.json.job_id);
    expect(job.json).toMatchObject({ status: "failed", error_message: expect.stringMatching(/damaged|incomplete/) });
    expect(await harness.balanceOf(token)).toBe(500);
    expect((await harness.ledgerOf(token)).filter((t) => t.type === "refund")).toHaveLength(1);
  }, 180_000);

  it("when Inngest cannot take the event, the request fails with 503 and nothing is charged or written", async () => {
    const { harness } = await app();
    const { token, account } = await testAccount({ tokens: 500 });
    const url = await harness.upload(token, await sharp(harness.fixture("coffee.png")).resize(64).png().toBuffer());
    failSends = true;
    try {
      const res = await harness.createJob(token, { image_url: url });
      expect(res.status).toBe(503);
      expect(res.json).toMatchObject({ error: "JOBS_UNAVAILABLE" });
    } finally {
      failSends = false;
    }
    expect(await harness.balanceOf(token)).toBe(500);
    const db = await getDb();
    expect(await db.select().from(bgRemoveJobs).where(eq(bgRemoveJobs.accountId, account.id))).toHaveLength(0);
  }, 60_000);
});
