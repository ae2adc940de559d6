import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import sharp from "sharp";
import { freePort } from "../../scripts/support/standalone-server";
import { executeLikeInngest, startFakeEventApi } from "./inngest-harness";

// The worker app (npm run worker): the same Inngest functions compiled to plain
// JavaScript (scripts/build-worker.mjs) and served by a separate Node process that
// shares the web app's PostgreSQL database and storage. The web app (here, its
// route handlers in this process) accepts and debits and sends the event; Inngest
// (here, the executor's requests over real HTTP) runs it in the worker app, whose
// engine threads are the compiled ones. The Inngest client reads INNGEST_DEV when it is
// created, so app code (test/http too) is imported after beforeAll sets it. PostgreSQL only: two processes cannot
// share the embedded database.

let eventApi: Awaited<ReturnType<typeof startFakeEventApi>>;
let worker: ChildProcess | undefined;
let workerUrl = "";
let workerOutput = "";

describe.runIf(!!process.env.DATABASE_URL)("the worker app", () => {
  beforeAll(async () => {
    eventApi = await startFakeEventApi();
    process.env.INNGEST_DEV = eventApi.url;
    execFileSync(process.execPath, ["scripts/build-worker.mjs"], { stdio: "ignore" });
    const port = await freePort();
    workerUrl = `http://127.0.0.1:${port}`;
    worker = spawn(process.execPath, ["dist/worker/inngest/worker-server.mjs"], {
      env: { ...process.env, WORKER_PORT: String(port), WORKER_HOST: "127.0.0.1", WORKER_BUNDLE_DIR: "dist/worker", NODE_ENV: "production", JOB_WARM_UP: "off", LOG_FORMAT: "json" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    worker.stdout!.on("data", (d) => (workerOutput += d));
    worker.stderr!.on("data", (d) => (workerOutput += d));
    for (let i = 0; ; i++) {
      if ((await fetch(`${workerUrl}/api/health`).catch(() => null))?.ok) break;
      if (i > 240) throw new Error(`the worker app did not start: ${workerOutput}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }, 120_000);

  afterAll(async () => {
    worker?.kill("SIGKILL");
    delete process.env.INNGEST_DEV;
    await eventApi?.close();
  });

  it("registers the same functions, and runs a job the web app accepted, in its own compiled engine threads", async () => {
    const introspection = await (await fetch(`${workerUrl}/api/inngest`)).json();
    const { jobFunctions } = await import("@/inngest/functions");
    expect(introspection).toMatchObject({ mode: "dev", function_count: 2 * jobFunctions.length }); // each job and its failure handler

    // The web app's side: accept, debit, send the event.
    const harness = await import("./bg-remove-harness");
    const { testAccount } = await import("../http");
    const { token } = await testAccount({ tokens: 500 });
    const photo = await sharp({ create: { width: 320, height: 240, channels: 3, background: "#ffffff" } })
      .composite([{ input: await sharp({ create: { width: 120, height: 120, channels: 3, background: "#c0392b" } }).png().toBuffer(), left: 100, top: 60 }])
      .png()
      .toBuffer();
    const created = await harness.createJob(token, { image_url: await harness.upload(token, photo) });
    expect(created.status).toBe(202);
    const event = (eventApi.received.at(-1)!.body as [Record<string, unknown>])[0]!;
    expect(event).toMatchObject({ name: "bg-remove/job.requested", data: { jobId: created.json.job_id } });

    // Inngest's side: the executor calls the worker app until the function returns.
    const post = (query: string, body: string) => fetch(`${workerUrl}/api/inngest?${query}`, { method: "POST", body, headers: { "content-type": "application/json" } });
    const run = await executeLikeInngest(post, "print-studio-bg-remove", event);
    expect(run.error, workerOutput).toBeUndefined();

    // The web app sees the result the worker app wrote to the shared database and storage.
    const job = (await harness.getJob(token, created.json.job_id)).json;
    expect(job).toMatchObject({ status: "completed", output_url: expect.stringContaining("/files/") });
    const { storage } = await import("@/lib/domain/storage");
    const stored = await storage().get(new URL(job.output_url).pathname.replace(/^\/files\//, ""));
    const out = await sharp(stored!.body).metadata();
    expect(out).toMatchObject({ width: 320, height: 240, hasAlpha: true });
    expect(workerOutput).not.toMatch(/tsx/);
  }, 240_000);
});
