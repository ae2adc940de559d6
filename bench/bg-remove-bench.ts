// Background removal through the durable job runtime: the whole job (accept in a
// transaction with the debit, the embedded runner claims it, fetch-source from
// storage, the model in its worker, storing the PNG, memoised steps, completion)
// against the same image run straight through the engine (removeBackground) and
// through the bare model (onnxruntime session.run on a prepared tensor), in the
// same run, alternated case by case so machine noise hits all three alike. The
// runtime's own overhead is also measured inside each job: its time from
// acceptance to completion minus the engine's time for it.
//
//   npx tsx bench/bg-remove-bench.ts          (BENCH_RUNS=5 per case by default)
//
// Cold start (server start to first completed job) runs in a fresh child
// process. Writes bench/results/bg-remove.json.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import sharp from "sharp";
import { benchImages, peakRssMb, stats } from "./bg-bench-support";

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const THROUGHPUT_JOBS = Number(process.env.BENCH_THROUGHPUT_JOBS ?? 6);
const OPTS = { subjectType: "auto", edgeSoftness: 3, highDetail: false, background: "transparent" } as const;

// A private data folder and embedded database per process, like a fresh `npm start`.
process.env.DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), "bg-remove-bench-"));
process.env.AUTH_SECRET ??= "bench-secret-bench-secret-bench-secret-0123";
process.env.APP_URL ??= "http://localhost:3000";
process.env.DEMO_ACCOUNT = "never";
// The same photo again and again: the engine's remembered mattes (matte-memo.ts) would skip the model.
process.env.BG_REMOVAL_MATTE_CACHE ??= "0";
delete process.env.DATABASE_URL;


/** An account with plenty of tokens and an uploaded image per size, through the app's own services. */
async function fixtures(made?: Awaited<ReturnType<typeof benchImages>>) {
  const { getDb } = await import("@/lib/foundation/db/client");
  const { createAccount } = await import("@/lib/domain/identity/create-account");
  const { createUpload } = await import("@/lib/domain/uploads/create-upload");
  const db = await getDb();
  const account = await createAccount(db, { email: `bench-${Date.now()}@example.com`, password: "bench passphrase 123", name: "Bench", verified: true, signupTokens: 1_000_000 });
  const imgs = made ?? (await benchImages());
  const urls: Record<string, string> = {};
  for (const [label, bytes] of Object.entries(imgs)) {
    const form = new FormData();
    form.append("file", new File([new Uint8Array(bytes)], "bench.jpg", { type: "image/jpeg" }));
    urls[label] = (await createUpload(db, account.id, form)).url;
  }
  return { db, accountId: account.id, imgs, urls };
}

type JobResult = { status: string; ms: number; engineMs: number };

/**
 * Accepts jobs as POST /v1/services/bg-remove does and waits for their ends.
 * One query every 100 ms for all of them (polling harder would itself take CPU
 * from the engine). `ms` is the server's own measure, acceptance (created_at)
 * to completed_at; `engineMs` is the engine's total inside the job (from the
 * run's output), so ms - engineMs is what the runtime adds.
 */
async function runJobs(accountId: string, imageUrl: string, count = 1): Promise<JobResult[]> {
  const { getDb } = await import("@/lib/foundation/db/client");
  const { createBgRemoveJob } = await import("@/lib/services/bg-remove/create-bg-remove-job");
  const { bgRemoveJobs, jobRuns } = await import("@/lib/foundation/db/schema");
  const { inArray } = await import("drizzle-orm");
  const db = await getDb();
  const body = { image_url: imageUrl, subject_type: "auto", edge_softness: 3, high_detail_mode: false, output_background: "transparent" } as const;
  const ids = (await Promise.all(Array.from({ length: count }, () => createBgRemoveJob(db, accountId, body)))).map((j) => j.job_id);
  for (;;) {
    const rows = await db.select().from(bgRemoveJobs).where(inArray(bgRemoveJobs.id, ids));
    if (rows.every((r) => r.status === "completed" || r.status === "failed")) {
      const runs = await db.select({ data: jobRuns.eventData, output: jobRuns.output }).from(jobRuns);
      const engineMs = new Map(runs.map((r) => [(r.data as { jobId: string }).jobId, (r.output as { timingsMs?: { total?: number } } | null)?.timingsMs?.total ?? NaN]));
      return rows.map((r) => ({
        status: r.status,
        ms: (r.completedAt ?? r.failedAt ?? new Date()).getTime() - r.createdAt.getTime(),
        engineMs: engineMs.get(r.id) ?? NaN,
      }));
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Child process: a server start as it happens (runner + model warm-up in the background), then at once a 1 MP job. */
async function coldPhase() {
  const made = await benchImages(); // the caller's files exist before the server starts
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  // CPU seconds of the whole process (main thread and engine worker): on a shared machine,
  // close to what the wall time would be on an idle one (one onnxruntime thread does the work).
  const cpuMs = (since: NodeJS.CpuUsage) => {
    const d = process.cpuUsage(since);
    return Math.round((d.user + d.system) / 1000);
  };
  // As lib/composition/startup.ts does: the model starts loading, the database opens, the runner starts.
  const { startJobsAtServerStart } = await import("@/lib/domain/jobs/server-start");
  await startJobsAtServerStart();
  const readyMs = Math.round(performance.now() - t0);
  const { accountId, urls } = await fixtures(made);
  const cpuAtAccept = process.cpuUsage();
  const [first] = await runJobs(accountId, urls["1 MP"]!);
  const out = {
    readyMs,
    firstJobMs: Math.round(first!.ms),
    firstJobCpuMs: cpuMs(cpuAtAccept),
    startToFirstCompletedMs: Math.round(performance.now() - t0),
    startToFirstCompletedCpuMs: cpuMs(cpu0),
    status: first!.status,
    peakRssMb: peakRssMb(),
  };
  const { stopJobRunner } = await import("@/lib/domain/jobs/runner/runner-instance");
  await stopJobRunner();
  return out;
}

async function main() {
  if (process.argv.includes("--phase")) {
    console.log(JSON.stringify(await coldPhase()));
    process.exit(0); // idle engine workers and PGlite would otherwise keep the child a little longer
  }
  const machine = `${os.availableParallelism()} x ${os.cpus()[0]?.model ?? "cpu"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  const { runnerOptionsFromEnv } = await import("@/lib/domain/jobs/runner/runner-options");
  const { engineConfig } = await import("@/lib/engines/ml/background-removal/engine-config");
  const runnerOpts = runnerOptionsFromEnv();
  const cfg = engineConfig();
  console.log(`machine: ${machine}`);
  console.log(
    `runner: ${runnerOpts.concurrency} runs at once (default), PGlite; engine: ${cfg.workers} worker(s) x ${cfg.threads} thread(s); ` +
      `${RUNS} runs per case; load average at start ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}\n`,
  );

  // The child makes its own data folder: a fresh server with nothing loaded yet.
  const childEnv = { ...process.env };
  delete childEnv.DATA_DIR;
  const cold = JSON.parse(
    execFileSync(process.execPath, [...process.execArgv, process.argv[1]!, "--phase", "cold"], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], env: childEnv, maxBuffer: 2 ** 24 })
      .trim()
      .split("\n")
      .pop()!,
  );

  const { startJobRunner, stopJobRunner } = await import("@/lib/domain/jobs/runner/runner-instance");
  (await import("@/inngest/register")).registerAppJobs();
  const { removeBackground, warmUpBackgroundRemoval } = await import("@/lib/engines/ml/background-removal");
  const { loadIsnetModel, MODEL_SIZE, toModelInput } = await import("@/lib/engines/ml/background-removal/isnet-model");
  const { accountId, imgs, urls } = await fixtures();
  await startJobRunner();
  await warmUpBackgroundRemoval();
  const model = await loadIsnetModel({ threads: cfg.threads });
  // A fresh histogram per window: a histogram that is disabled and enabled again
  // counts the time in between as one long delay.
  const lagWindows: { p99: number; max: number }[] = [];
  const watchLag = async <T>(work: () => Promise<T>): Promise<T> => {
    const h = monitorEventLoopDelay({ resolution: 10 });
    h.enable();
    try {
      return await work();
    } finally {
      h.disable();
      lagWindows.push({ p99: h.percentile(99) / 1e6, max: h.max / 1e6 });
    }
  };

  const latency: Record<string, { runner: number[]; inJob: number[]; overhead: number[]; engine: number[]; bare: number[] }> = {};
  for (const [label, bytes] of Object.entries(imgs)) {
    const tensor = toModelInput(await sharp(bytes).resize(MODEL_SIZE, MODEL_SIZE, { fit: "fill" }).removeAlpha().raw().toBuffer());
    await model.run(tensor); // the session's first run is not counted
    await runJobs(accountId, urls[label]!); // nor the first job of this size
    const l = (latency[label] = { runner: [] as number[], inJob: [] as number[], overhead: [] as number[], engine: [] as number[], bare: [] as number[] });
    for (let i = 0; i < RUNS; i++) {
      let t = performance.now();
      await model.run(tensor);
      l.bare.push(performance.now() - t);
      t = performance.now();
      await removeBackground(bytes, OPTS);
      l.engine.push(performance.now() - t);
      const [job] = await watchLag(() => runJobs(accountId, urls[label]!));
      if (job!.status !== "completed") throw new Error(`a ${label} job ended ${job!.status}`);
      l.runner.push(job!.ms);
      l.inJob.push(job!.engineMs);
      l.overhead.push(job!.ms - job!.engineMs);
    }
  }
  await model.release();

  // Throughput with the runner's default concurrency: N 1 MP jobs accepted at once,
  // against the same N images handed to the engine at once (its own queue).
  let t = performance.now();
  const results = await watchLag(() => runJobs(accountId, urls["1 MP"]!, THROUGHPUT_JOBS));
  const runnerPerMin = (THROUGHPUT_JOBS / (performance.now() - t)) * 60_000;
  if (results.some((r) => r.status !== "completed")) throw new Error("a throughput job failed");
  t = performance.now();
  await Promise.all(Array.from({ length: THROUGHPUT_JOBS }, () => removeBackground(imgs["1 MP"], OPTS)));
  const enginePerMin = (THROUGHPUT_JOBS / (performance.now() - t)) * 60_000;
  await stopJobRunner();

  const rows = Object.entries(latency).map(([label, l]) => {
    const r = stats(l.runner);
    const e = stats(l.engine);
    const b = stats(l.bare);
    const o = stats(l.overhead);
    return {
      case: label,
      "job p50 ms": r.p50,
      "job p95 ms": r.p95,
      "engine p50 ms": e.p50,
      "engine p95 ms": e.p95,
      "bare model p50 ms": b.p50,
      "job/engine p50": Number((r.p50 / e.p50).toFixed(2)),
      "job/engine p95": Number((r.p95 / e.p95).toFixed(2)),
      "job/bare p50": Number((r.p50 / b.p50).toFixed(2)),
      "runtime overhead p50 / p95 ms": `${o.p50} / ${o.p95}`,
    };
  });
  console.table(rows);
  const summary = [
    { measure: `throughput, ${THROUGHPUT_JOBS} x 1 MP jobs at once, runner default concurrency`, value: `${runnerPerMin.toFixed(1)} images/min` },
    { measure: `throughput, same ${THROUGHPUT_JOBS} images straight to the engine`, value: `${enginePerMin.toFixed(1)} images/min (runner/engine ${(runnerPerMin / enginePerMin).toFixed(2)})` },
    { measure: "server start -> jobs ready (database, runner; warm-up continues in background)", value: `${cold.readyMs} ms` },
    {
      measure: "first 1 MP job, accepted as soon as the runner is up: acceptance -> completed (target < 10 s)",
      value: `${cold.firstJobMs} ms wall, ${cold.firstJobCpuMs} ms CPU (${cold.status})`,
    },
    { measure: "server start -> first completed job", value: `${cold.startToFirstCompletedMs} ms wall, ${cold.startToFirstCompletedCpuMs} ms CPU` },
    { measure: "peak RSS, fresh server process (runner, engine, first job)", value: `${cold.peakRssMb} MB` },
    { measure: "peak RSS, this process (runner + engine worker + a bare model copy)", value: `${peakRssMb()} MB` },
    {
      measure: "event-loop delay while jobs ran (worst window p99 / max)",
      value: `${Math.round(Math.max(...lagWindows.map((w) => w.p99)))} / ${Math.round(Math.max(...lagWindows.map((w) => w.max)))} ms`,
    },
  ];
  console.table(summary);
  console.log(`load average at end ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`);

  fs.mkdirSync("bench/results", { recursive: true });
  fs.writeFileSync(
    "bench/results/bg-remove.json",
    JSON.stringify({ machine, at: new Date().toISOString(), runner: runnerOpts, engine: cfg, runs: RUNS, cold, latency, rows, runnerPerMin, enginePerMin, lagWindows }, null, 2),
  );
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
