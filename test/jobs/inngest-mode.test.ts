import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import sharp from "sharp";
import { eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { bgRemoveJobs, jobRuns } from "@/lib/db/schema";
import { jobsMode } from "@/lib/jobs/jobs-mode";
import { testAccount } from "../http";

// Inngest mode without an Inngest server (none can be installed here): a small
// local HTTP server takes the events the app sends (the dev server's event
// API), and the test drives /api/inngest the way Inngest's executor does,
// step by step with the step state it would keep. The Inngest client reads its
// environment when created, so everything app-side is imported after it is set.

const received: { path: string; body: any }[] = [];
let failSends = false;
const inngestServer = http.createServer((req, res) => {
  let raw = "";
  req.on("data", (c) => (raw += c));
  req.on("end", () => {
    received.push({ path: req.url ?? "", body: raw ? JSON.parse(raw) : null });
    if (failSends) return void res.writeHead(503, { "content-type": "application/json" }).end(JSON.stringify({ error: "down", status: 503 }));
    const events = JSON.parse(raw || "[]") as { id: string }[];
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ ids: events.map((e) => e.id), status: 200 }));
  });
});

beforeAll(async () => {
  await new Promise<void>((r) => inngestServer.listen(0, "127.0.0.1", r));
  process.env.INNGEST_DEV = `http://127.0.0.1:${(inngestServer.address() as AddressInfo).port}`;
});
afterAll(async () => {
  delete process.env.INNGEST_DEV;
  await new Promise<void>((r) => inngestServer.close(() => r()));
});

const app = async () => ({
  inngestRoute: await import("@/app/api/inngest/route"),
  harness: await import("./bg-remove-harness"),
});

/** What Inngest's executor does: call the function, store each step's result, call again, until it returns. */
async function executeLikeInngest(fnId: string, event: Record<string, unknown>) {
  const { inngestRoute } = await app();
  const steps: Record<string, { type: "data"; data: unknown } | { type: "error"; error: unknown }> = {};
  const stack: string[] = [];
  const ran: string[] = [];
  for (let request = 1; request <= 20; request++) {
    const body = { event, events: [event], steps, ctx: { run_id: "01INNGESTRUN", attempt: 0, disable_immediate_execution: false, use_api: false, stack: { stack, current: stack.length } }, version: 1 };
    const res = await inngestRoute.POST(
      new Request(`http://localhost:3000/api/inngest?fnId=${fnId}&stepId=step`, { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } }),
      {} as never,
    );
    const out = await res.json();
    if (res.status === 200) return { result: out, ran, requests: request };
    if (res.status !== 206) throw new Error(`/api/inngest answered ${res.status}: ${JSON.stringify(out)}`);
    for (const op of out as { id: string; op: string; name?: string; data?: unknown; error?: unknown }[]) {
      ran.push(`${op.op}:${op.name}`);
      steps[op.id] = op.op === "StepError" || op.op === "StepFailed" ? { type: "error", error: op.error } : { type: "data", data: op.data ?? null };
      stack.push(op.id);
      if (op.op === "StepError" || op.op === "StepFailed") return { error: op.error, ran, requests: request };
    }
  }
  throw new Error("the function did not finish in 20 requests");
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
    expect(await res.json()).toMatchObject({ mode: "dev", function_count: jobFunctions.length * 2 });

    const saved = process.env.INNGEST_DEV;
    delete process.env.INNGEST_DEV;
    try {
      const off = await inngestRoute.GET(new Request("http://localhost:3000/api/inngest"), {} as never);
      expect(off.status).toBe(404);
      expect((await off.json()).error).toBe("NOT_FOUND");
    } finally {
      process.env.INNGEST_DEV = saved;
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
