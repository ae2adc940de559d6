// Background removal over HTTP against the engine alone, in the same run: the real
// standalone server (`npm run build` output copied into an empty folder and started as
// in production, scripts/support/standalone-server.ts: embedded defaults, glibc's malloc
// settings, PGlite, local files, the embedded runner) takes steady 1 MP jobs one after
// another (POST /v1/services/bg-remove, then GET every 100 ms until completed); between
// them, a separate process started with the same malloc settings runs the same photo
// straight through the engine (`removeBackground`, its worker thread, as a job does).
// HTTP job and engine run alternate, so load from other work on the machine hits both alike.
//
// Reported: the steady HTTP job time (client's wall time, POST to the GET that sees
// "completed"; the first job of each kind, which loads the models, is left out), the
// engine alone's, and their ratio; the server's own per-step timings for each job (its
// "background removal" log line: load, budget wait, pool wait, salient model, person model,
// full-resolution matte, encode, store). **FAIL** (exit code 1) when the ratio passes 1.3.
// Skipped, and said so, without a build.
//
//   npm run build && npx tsx bench/bg-http-bench.ts     (BENCH_RUNS=6 by default; writes bench/results/bg-http.json)
//
// The last line printed is the JSON.
import { fork, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { MALLOC_TUNABLES } from "../scripts/malloc-tunables.mjs";
import { STANDALONE, apiClient, copyStandalone, expectStatus, premiumAccount, startStandalone, upload, waitHealthy, type Json } from "../scripts/support/standalone-server";
import { stats } from "./bg-bench-support";

const RUNS = Number(process.env.BENCH_RUNS ?? 6);
const LIMIT = 1.3;
const OPERATOR_TOKEN = "bench-operator-token-0123456789";
const KINDS = ["auto", "product", "logo"] as const;
/** Passed to the server (and the engine alone) when set, to measure other settings against the defaults. */
const PASSED = ["BG_REMOVAL_KEEP_WARM", "BG_REMOVAL_THREADS", "BG_REMOVAL_MATTE_CACHE", "ENGINE_MEMORY_MB", "JOB_WARM_UP", "JOB_CONCURRENCY", "GLIBC_TUNABLES", "DATABASE_URL"];
const passed = () => Object.fromEntries(PASSED.filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]!]));
type Kind = (typeof KINDS)[number];

/**
 * The photo size: 1155 × 866 JPEG (the coffee photo, Lanczos), a little brighter
 * for each `n`, so every job is a new photo to the engine (which remembers the mattes of
 * photos it has just seen: matte-memo.ts) and the HTTP job and the engine alone of one
 * round get the same one.
 */
const photo = (n: number) =>
  sharp(fs.readFileSync(path.resolve("lib/engines/ml/background-removal/fixtures/coffee.png")))
    .resize(1155, 866, { fit: "fill", kernel: "lanczos3" })
    .modulate({ brightness: 1 + 0.004 * n })
    .jpeg({ quality: 90 })
    .toBuffer();

/** Child: the engine alone, one job per message, as the server's worker runs it. */
async function engineChild() {
  const { removeBackground } = await import("@/lib/engines/ml/background-removal");
  process.on("message", async (msg: { kind: Kind; n: number }) => {
    const img = await photo(msg.n);
    const t = performance.now();
    const r = await removeBackground(img, { subjectType: msg.kind, edgeSoftness: 3, highDetail: false, background: "transparent" });
    process.send!({ ms: Math.round(performance.now() - t), timingsMs: r.timingsMs });
  });
  process.send!({ ready: true });
}

function engineProcess(): { child: ChildProcess; run: (kind: Kind, n: number) => Promise<{ ms: number; timingsMs: Record<string, number> }> } {
  const child = fork(process.argv[1]!, ["--engine"], {
    execArgv: process.execArgv,
    env: { ...process.env, GLIBC_TUNABLES: process.env.GLIBC_TUNABLES ?? MALLOC_TUNABLES },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  return {
    child,
    run: (kind, n) =>
      new Promise((resolve, reject) => {
        const onExit = (code: number | null) => reject(new Error(`engine process exited (${code})`));
        const onMessage = (m: { ms?: number; timingsMs?: Record<string, number> }) => {
          if (m.ms === undefined) return;
          child.off("message", onMessage);
          child.off("exit", onExit);
          resolve(m as { ms: number; timingsMs: Record<string, number> });
        };
        child.on("message", onMessage);
        child.once("exit", onExit);
        child.send({ kind, n });
      }),
  };
}

/** Calls `check` every 100 ms until it says true; its errors end the wait. */
async function pollUntil(check: () => Promise<boolean>, timeoutMs: number, what: string) {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The server's log lines with this message (JSON), by job id. */
function logLines(output: string, msg: string): Map<string, Json> {
  const lines = new Map<string, Json>();
  for (const line of output.split("\n")) {
    if (!line.includes(`"msg":"${msg}"`)) continue;
    try {
      const j = JSON.parse(line) as Json;
      if (j.job_id) lines.set(j.job_id as string, j);
    } catch {
      // not a JSON line
    }
  }
  return lines;
}

async function main() {
  if (process.argv.includes("--engine")) return engineChild();
  if (!fs.existsSync(path.join(STANDALONE, "server.js"))) {
    const skipped = `no build at ${STANDALONE}: run \`npm run build\` first`;
    console.log(`background removal HTTP bench skipped: ${skipped}`);
    console.log(JSON.stringify({ skipped }));
    return;
  }
  const machine = `${os.availableParallelism()} x ${os.cpus()[0]?.model ?? "cpu"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  const loadAtStart = os.loadavg().map((l) => Number(l.toFixed(1)));
  const settings = Object.fromEntries(PASSED.map((k) => [k, k === "DATABASE_URL" && process.env[k] ? "(set)" : (process.env[k] ?? "(default)")]));
  console.log(`machine: ${machine}; load average at start ${loadAtStart.join(" ")}; ${RUNS} runs of each kind; ${JSON.stringify(settings)}`);
  const dir = copyStandalone();
  const server = await startStandalone(dir, {
    DATA_DIR: path.join(dir, ".data"),
    OPERATOR_TOKEN,
    LOG_FORMAT: "json",
    // Polling every 100 ms is 600 requests a minute, over the default limit of 120: a 429 would
    // hide the completion until the window ends (a first version of this bench measured that).
    RATE_LIMIT_PER_MINUTE: "100000",
    ...passed(),
  });
  const engine = engineProcess();
  let failed = false;
  try {
    await waitHealthy(server);
    await new Promise<void>((resolve) => engine.child.once("message", () => resolve()));
    const api = apiClient(server.base);
    const { token } = await premiumAccount(api, OPERATOR_TOKEN, 100_000);

    const httpJob = async (kind: Kind, n: number) => {
      const imageUrl = await upload(api, token, await photo(n), `photo-${n}.jpg`, "image/jpeg");
      const t = performance.now();
      const created = await api("POST", "/v1/services/bg-remove", { image_url: imageUrl, subject_type: kind }, token);
      const postMs = Math.round(performance.now() - t);
      expectStatus(created, 202, "bg-remove");
      let job: Json = {};
      const gets: number[] = [];
      // Not waitFor(): it would take a refused GET (a 429) for "not yet".
      await pollUntil(
        async () => {
          const g = performance.now();
          const res = await api("GET", `/v1/services/bg-remove/${created.json.job_id}`, undefined, token);
          gets.push(performance.now() - g);
          expectStatus(res, 200, "GET bg-remove");
          job = res.json;
          return job.status === "completed" || job.status === "failed";
        },
        240_000,
        `job ${created.json.job_id}`,
      );
      if (job.status !== "completed") throw new Error(`job ${created.json.job_id} ${job.status}: ${job.error_message}`);
      return {
        jobId: created.json.job_id as string,
        ms: Math.round(performance.now() - t),
        postMs,
        getMs: Math.round(gets.reduce((a, b) => a + b, 0) / gets.length),
        serverMs: Date.parse(job.completed_at) - Date.parse(job.created_at),
      };
    };

    const rows: { kind: Kind; round: number; httpMs: number; postMs: number; getMs: number; serverMs: number; engineMs: number; jobId: string }[] = [];
    let n = 0;
    for (let round = 0; round <= RUNS; round++) {
      for (const kind of KINDS) {
        n++;
        // Alternated, and the order flipped each round, so a slow moment hits both.
        let h, e;
        if (round % 2) {
          h = await httpJob(kind, n);
          e = await engine.run(kind, n);
        } else {
          e = await engine.run(kind, n);
          h = await httpJob(kind, n);
        }
        rows.push({ kind, round, httpMs: h.ms, postMs: h.postMs, getMs: h.getMs, serverMs: h.serverMs, engineMs: e.ms, jobId: h.jobId });
        console.log(`round ${round} ${kind}: HTTP ${h.ms} ms (POST ${h.postMs} ms, a GET ${h.getMs} ms, created to completed ${h.serverMs} ms), engine alone ${e.ms} ms`);
      }
    }
    // Give the log a moment to reach us.
    await new Promise((r) => setTimeout(r, 500));
    const steps = logLines(server.output(), "background removal");
    const attempts = logLines(server.output(), "job attempt");
    const steady = rows.filter((r) => r.round > 0);
    const http = stats(steady.map((r) => r.httpMs));
    const alone = stats(steady.map((r) => r.engineMs));
    const ratio = Number((http.p50 / alone.p50).toFixed(2));
    const perKind = Object.fromEntries(
      KINDS.map((k) => {
        const rs = steady.filter((r) => r.kind === k);
        const h = stats(rs.map((r) => r.httpMs)), e = stats(rs.map((r) => r.engineMs));
        return [k, { httpP50: h.p50, engineP50: e.p50, ratio: Number((h.p50 / e.p50).toFixed(2)) }];
      }),
    );
    const stepTable = rows.map((r) => ({
      kind: r.kind,
      round: r.round,
      http: r.httpMs,
      engine: r.engineMs,
      post: r.postMs,
      get: r.getMs,
      created_to_completed: r.serverMs,
      attempt: attempts.get(r.jobId)?.duration_ms as number | undefined,
      ...((steps.get(r.jobId)?.steps_ms as Json | undefined) ?? {}),
    }));
    console.table(stepTable);
    console.table(perKind);
    failed = ratio > LIMIT;
    const verdict = failed
      ? `FAIL: the steady HTTP job takes ${ratio}x the engine alone (limit ${LIMIT}x): ${http.p50} ms against ${alone.p50} ms`
      : `ok: the steady HTTP job takes ${ratio}x the engine alone (limit ${LIMIT}x): ${http.p50} ms against ${alone.p50} ms, ${http.p50 - alone.p50} ms more`;
    console.log(failed ? `\n*** ${verdict} ***\n` : `\n${verdict}\n`);
    const result = { machine, settings, at: new Date().toISOString(), loadAverage: { start: loadAtStart, end: os.loadavg().map((l) => Number(l.toFixed(1))) }, runs: RUNS, limit: LIMIT, ratio, verdict, httpMs: http, engineAloneMs: alone, perKind, jobs: stepTable };
    fs.mkdirSync("bench/results", { recursive: true });
    fs.writeFileSync("bench/results/bg-http.json", JSON.stringify(result, null, 2));
    fs.writeFileSync("bench/results/bg-http-server.log", server.output());
    console.log(JSON.stringify(result));
  } catch (err) {
    failed = true;
    console.error(`background removal HTTP bench failed: ${err instanceof Error ? err.message : String(err)}`);
    console.error("--- server output ---\n" + server.output().slice(-4000));
  } finally {
    engine.child.kill();
    await server.kill();
    fs.rmSync(path.dirname(dir), { recursive: true, force: true });
  }
  if (failed) process.exitCode = 1;
}

void main();
