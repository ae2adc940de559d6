// Server memory: the real standalone server (`npm run build` output, copied alone into an
// empty folder as scripts/standalone-smoke.ts does) driven over HTTP with one job of every
// heavy service at once: a background removal (a 1 MP portrait as "person"), a face crop
// with enhance (super-resolution), a face match job (the demo agency), and an AI fix of a
// PDF (Ghostscript). Resident memory (VmRSS) of the server and every process it started
// (Ghostscript), sampled every 250 ms from /proc:
// - idle after start (health answered, 10 s settled), and once the engines' idle time has passed
//   too (a fresh demo database runs its reference build at start, which loads the face engine),
// - peak while the jobs run (all four by default; BENCH_JOBS=bg,enhance,match,fix picks some,
//   to see each service's own peak),
// - just after them, and after the idle unload (BG_REMOVAL_IDLE_SECONDS and ENGINE_IDLE_SECONDS,
//   20 s here, + 10 s),
// - after a restart on the same data (SIGTERM, started again, +10 s): a deployed server's start.
// Skipped, and said so, when there is no build.
//
//   npm run build && npx tsx bench/server-memory-bench.ts    (writes bench/results/server-memory.json)
//   JOB_WARM_UP=off / BG_REMOVAL_KEEP_WARM=true ...           (the other start-up modes)
//   DATABASE_URL=postgres://…/bench_mem ...                    (PostgreSQL instead of the embedded PGlite)
//
// The last line printed is the JSON (bench/run.ts reads it).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import {
  STANDALONE,
  apiClient,
  copyStandalone,
  expectStatus,
  finishedBgRemoval,
  onePagePdf,
  premiumAccount,
  startStandalone,
  untilEnded,
  upload,
  waitHealthy,
  type Json,
} from "../scripts/support/standalone-server";
import { atMegapixels } from "./bg-bench-support";

const OPERATOR_TOKEN = "bench-operator-token-0123456789";
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 20);
const JOB_NAMES = ["bg", "enhance", "match", "fix"] as const;
const SELECTED = new Set((process.env.BENCH_JOBS ?? JOB_NAMES.join(",")).split(",").map((s) => s.trim()));
for (const name of SELECTED) if (!(JOB_NAMES as readonly string[]).includes(name)) throw new Error(`BENCH_JOBS: unknown job "${name}" (${JOB_NAMES.join(", ")})`);
const PASSED = ["BG_REMOVAL_KEEP_WARM", "ENGINE_KEEP_WARM", "ENGINE_MEMORY_MB", "JOB_WARM_UP", "MALLOC_ARENA_MAX", "GLIBC_TUNABLES", "DATABASE_URL"];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** RSS in MB of every process in the group `pgid` (the server was started detached: its own group). */
function groupRssMb(pgid: number): { totalMb: number; serverMb: number; processes: number; serverThreads: number } {
  let total = 0, server = 0, processes = 0, serverThreads = 0;
  for (const pid of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      // Fields after the command name (which may hold spaces): state ppid pgrp ...
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) !== pgid) continue;
      const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
      const m = /VmRSS:\s+(\d+) kB/.exec(status);
      const kb = m ? Number(m[1]) : 0;
      total += kb;
      processes++;
      if (Number(pid) === pgid) {
        server = kb;
        // OS threads of the server: engine worker threads (and their onnxruntime / libvips pools) show here.
        serverThreads = Number(/Threads:\s+(\d+)/.exec(status)?.[1] ?? 0);
      }
    } catch {
      // the process ended between readdir and read
    }
  }
  return { totalMb: Math.round(total / 1024), serverMb: Math.round(server / 1024), processes, serverThreads };
}

/** The server's largest memory mappings by RSS (BENCH_SMAPS=1): where the memory left after idle lives. */
function largestMappings(pid: number, n = 6): string[] {
  const maps: { head: string; rssMb: number; sizeMb: number }[] = [];
  for (const line of fs.readFileSync(`/proc/${pid}/smaps`, "utf8").split("\n")) {
    if (/^[0-9a-f]+-[0-9a-f]+ /.test(line)) maps.push({ head: line.split(/\s+/).slice(5).join(" ") || "[anonymous]", rssMb: 0, sizeMb: 0 });
    else if (line.startsWith("Rss:")) maps.at(-1)!.rssMb = Number(line.split(/\s+/)[1]) / 1024;
    else if (line.startsWith("Size:")) maps.at(-1)!.sizeMb = Number(line.split(/\s+/)[1]) / 1024;
  }
  return maps
    .sort((a, b) => b.rssMb - a.rssMb)
    .slice(0, n)
    .map((m) => `${Math.round(m.rssMb)} MB resident of a ${Math.round(m.sizeMb)} MB mapping: ${m.head}`);
}

async function main() {
  if (!fs.existsSync(path.join(STANDALONE, "server.js"))) {
    const skipped = `no build at ${STANDALONE}: run \`npm run build\` first`;
    console.log(`server memory bench skipped: ${skipped}`);
    console.log(JSON.stringify({ skipped }));
    return;
  }
  const machine = `${os.availableParallelism()} x ${os.cpus()[0]?.model ?? "cpu"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  console.log(`machine: ${machine}; load average at start ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`);
  const dir = copyStandalone();
  const env = {
    DATA_DIR: path.join(dir, ".data"),
    OPERATOR_TOKEN,
    BG_REMOVAL_IDLE_SECONDS: String(IDLE_SECONDS),
    ENGINE_IDLE_SECONDS: String(IDLE_SECONDS),
    // The match job uses the demo agency, which a PostgreSQL server seeds only when asked.
    DEMO_ACCOUNT: "always",
    // Passed through when set, to measure the other modes (engines warmed at start or not).
    ...Object.fromEntries(PASSED.filter((k) => process.env[k]).map((k) => [k, process.env[k]!])),
    // GLIBC_TUNABLES= (empty) measures glibc's own defaults; unset, the server's (scripts/malloc-tunables.mjs).
    ...(process.env.GLIBC_TUNABLES === "" ? { GLIBC_TUNABLES: "" } : {}),
  };
  let server = await startStandalone(dir, env);
  const api = apiClient(server.base);
  const pgid = server.child.pid!;
  let peak = { totalMb: 0, serverMb: 0, processes: 0, serverThreads: 0 };
  let sampling = false;
  const sampler = setInterval(() => {
    if (!sampling) return;
    const now = groupRssMb(pgid);
    if (now.totalMb > peak.totalMb) peak = now;
  }, 250);
  try {
    const t0 = Date.now();
    await waitHealthy(server);
    const startedMs = Date.now() - t0;
    await sleep(10_000);
    const idle = groupRssMb(pgid);
    console.log(`idle after start (health in ${startedMs} ms, +10 s): ${idle.totalMb} MB`);
    await sleep(IDLE_SECONDS * 1000);
    const settled = groupRssMb(pgid);
    console.log(`idle after start and the engines' idle time (+${IDLE_SECONDS} s more): ${settled.totalMb} MB`);

    const { token } = await premiumAccount(api, OPERATOR_TOKEN);
    const portrait = await atMegapixels(path.resolve("lib/engines/ml/background-removal/fixtures/person-poster.jpg"), 1);
    const face = fs.readFileSync(path.resolve("test/fixtures/faces/obama.jpg"));
    const tiny = await sharp(face).resize(200, 250).jpeg().toBuffer();
    const portraitUrl = await upload(api, token, portrait, "portrait.jpg", "image/jpeg");
    const tinyUrl = await upload(api, token, tiny, "tiny.jpg", "image/jpeg");
    const pdfUrl = await upload(api, token, await onePagePdf(), "flyer.pdf", "application/pdf");
    const check = await api("POST", "/v1/services/preflight/checks", { designId: "bench-pdf", fileUrl: pdfUrl, canvasWidthInches: 8, canvasHeightInches: 10 }, token);
    expectStatus(check, 201, "preflight PDF");
    const demo = JSON.parse(fs.readFileSync(path.join(dir, ".data", "demo-account.json"), "utf8")) as { email: string; password: string };
    const demoToken = (await api("POST", "/v1/auth/token", { email: demo.email, password: demo.password })).json.access_token as string;
    const agency = (await api("GET", "/v1/services/studio/agencies", undefined, demoToken)).json.agencies?.find((a: Json) => a.name.startsWith("Demo"));
    const demoJob = (await api("GET", `/v1/services/studio/agencies/${agency.id}/jobs`, undefined, demoToken)).json.jobs?.[0];
    expectStatus(await api("POST", "/v1/services/studio/matching/references", { agency_id: agency.id }, demoToken), 200, "references");
    const beforeJobs = groupRssMb(pgid);

    sampling = true;
    const t1 = Date.now();
    const timed = async <T>(name: string, run: () => Promise<T>) => {
      const s = Date.now();
      const out = await run();
      return { name, ms: Date.now() - s, out };
    };
    const all = {
      bg: () =>
        timed("background removal (1 MP portrait, person)", async () => {
          const created = await api("POST", "/v1/services/bg-remove", { image_url: portraitUrl, subject_type: "person" }, token);
          expectStatus(created, 202, "bg-remove");
          return (await finishedBgRemoval(api, token, created.json.job_id)).status;
        }),
      enhance: () =>
        timed("face crop with enhance", async () => {
          const task = await api("POST", "/v1/services/studio/face-crop", { image_url: tinyUrl, icp_type: "school", enhance: true }, token);
          expectStatus(task, 202, "face crop with enhance");
          return (await untilEnded(async () => (await api("GET", `/v1/services/studio/jobs/${task.json.task_id}`, undefined, token)).json, "enhance")).status;
        }),
      match: () =>
        timed("face match job (demo agency, 6 photos)", async () => {
          const match = await api("POST", "/v1/services/studio/matching/match-job", { agency_id: agency.id, job_id: demoJob?.id }, demoToken);
          expectStatus(match, 200, "match job");
          return (await untilEnded(async () => (await api("GET", `/v1/services/studio/matching/jobs/${match.json.match_job_id}`, undefined, demoToken)).json, "match")).status;
        }),
      fix: () =>
        timed("AI fix of a PDF (Ghostscript)", async () => {
          const fix = await api("POST", "/v1/services/preflight/ai-jobs", { preflightReportId: check.json.data.reportId }, token);
          expectStatus(fix, 202, "AI fix job");
          return (await untilEnded(async () => (await api("GET", `/v1/services/preflight/ai-jobs/${fix.json.data.jobId}`, undefined, token)).json.data ?? {}, "AI fix")).status;
        }),
    };
    const jobs = await Promise.all(JOB_NAMES.filter((n) => SELECTED.has(n)).map((n) => all[n]()));
    const allMs = Date.now() - t1;
    sampling = false;
    for (const j of jobs) if (j.out !== "completed") throw new Error(`${j.name}: ${j.out}`);
    const afterJobs = groupRssMb(pgid);
    console.log(`jobs done in ${allMs} ms; peak ${peak.totalMb} MB; just after ${afterJobs.totalMb} MB`);
    await sleep((IDLE_SECONDS + 10) * 1000);
    const afterIdle = groupRssMb(pgid);
    console.log(`after the idle unload (${IDLE_SECONDS} s setting + 10 s): ${afterIdle.totalMb} MB`);
    if (process.env.BENCH_SMAPS) for (const line of largestMappings(pgid)) console.log(`  ${line}`);

    // A restart on the same data: what a deployed server holds after start, without the
    // demo's first reference build (which a fresh database runs at start).
    await server.kill("SIGTERM");
    server = await startStandalone(dir, env);
    const restartT0 = Date.now();
    await waitHealthy(server);
    const restartHealthMs = Date.now() - restartT0;
    await sleep(10_000);
    const afterRestart = groupRssMb(server.child.pid!);
    console.log(`idle after a restart on the same data (health in ${restartHealthMs} ms, +10 s): ${afterRestart.totalMb} MB`);

    const result = {
      machine,
      at: new Date().toISOString(),
      // A database URL may hold a password: only whether one was given.
      settings: Object.fromEntries(
        PASSED.map((k) => [k, process.env[k] ? (k === "DATABASE_URL" ? "postgres (set)" : process.env[k]) : process.env[k] === "" ? "(empty)" : "(default)"]),
      ),
      idleSeconds: IDLE_SECONDS,
      loadAverage: os.loadavg().map((l) => Number(l.toFixed(1))),
      healthMs: startedMs,
      jobsRun: [...SELECTED],
      idleAfterStart: idle,
      idleAfterStartSettled: settled,
      beforeJobs,
      peak,
      afterJobs,
      afterIdle,
      afterRestart,
      jobs: jobs.map(({ name, ms, out }) => ({ name, ms, status: out })),
      allJobsMs: allMs,
    };
    console.table([
      { moment: "idle after start", ...idle },
      { moment: `idle after start + ${IDLE_SECONDS} s`, ...settled },
      { moment: "account, uploads, references made", ...beforeJobs },
      { moment: `peak while the jobs run (${[...SELECTED].join(", ")})`, ...peak },
      { moment: "just after the jobs", ...afterJobs },
      { moment: `after idle (${IDLE_SECONDS} s + 10 s)`, ...afterIdle },
      { moment: "idle after a restart on the same data (+10 s)", ...afterRestart },
    ]);
    console.table(result.jobs);
    fs.mkdirSync("bench/results", { recursive: true });
    fs.writeFileSync("bench/results/server-memory.json", JSON.stringify(result, null, 2));
    console.log(JSON.stringify(result));
  } catch (err) {
    console.error(`server memory bench failed: ${err instanceof Error ? err.message : String(err)}`);
    console.error("--- server output ---\n" + server.output().slice(-4000));
    process.exitCode = 1;
  } finally {
    clearInterval(sampler);
    await server.kill();
    fs.rmSync(path.dirname(dir), { recursive: true, force: true });
  }
}

void main();
