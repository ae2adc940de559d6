// Background removal engine: the bare ISNet model (onnxruntime session.run on a
// prepared 1024 x 1024 tensor) against the whole removeBackground (decode, model
// input, inference in a worker thread, matte clean-up, full-size upsampling,
// edges, PNG encoding) on the same images, at 1 MP and 12 MP.
//
//   npx tsx bench/bg-model-bench.ts            (BENCH_RUNS=5 per case by default)
//
// Latency alternates bare and full run by run in one process; load time, cold
// start and peak RSS (VmHWM) come from fresh child processes. Writes
// bench/results/bg-model.json.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import { monitorEventLoopDelay } from "node:perf_hooks";
import sharp from "sharp";
import { benchImages, peakRssMb, stats } from "./bg-bench-support";
import { loadIsnetModel, MODEL_SIZE, toModelInput } from "@/lib/ml/background-removal/isnet-model";
import { engineConfig } from "@/lib/ml/background-removal/engine-config";
import type { BgRemovalOptions } from "@/lib/ml/background-removal";

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const OPTS: BgRemovalOptions = { subjectType: "auto", edgeSoftness: 3, highDetail: false, background: "transparent" };


/** Child process: model load time and peak RSS of the bare model alone. */
async function bareMemoryPhase() {
  const t0 = performance.now();
  const model = await loadIsnetModel({ threads: engineConfig().threads });
  const loadMs = Math.round(performance.now() - t0);
  const rgb = await sharp((await benchImages())["1 MP"]).resize(MODEL_SIZE, MODEL_SIZE, { fit: "fill" }).raw().toBuffer();
  await model.run(toModelInput(rgb));
  return { loadMs, peakRssMb: peakRssMb() };
}

/** Child process: a server start as it happens: warm-up, the first 1 MP image, then a 12 MP one; peak RSS. */
async function coldStartPhase() {
  const { removeBackground, warmUpBackgroundRemoval, shutDownBackgroundRemoval } = await import("@/lib/ml/background-removal");
  const imgs = await benchImages();
  // CPU time (all threads of this process) beside wall time: on a machine shared
  // with other work, CPU time is what the wall time would be on an idle one
  // (one onnxruntime thread does nearly all of the work).
  const cpuMs = (since: NodeJS.CpuUsage) => {
    const d = process.cpuUsage(since);
    return Math.round((d.user + d.system) / 1000);
  };
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  await warmUpBackgroundRemoval();
  const warmUpMs = Math.round(performance.now() - t0);
  const warmUpCpuMs = cpuMs(c0);
  const t1 = performance.now();
  const c1 = process.cpuUsage();
  const first = await removeBackground(imgs["1 MP"], OPTS);
  const firstImageMs = Math.round(performance.now() - t1);
  const firstImageCpuMs = cpuMs(c1);
  await removeBackground(imgs["12 MP"], OPTS);
  const out = { warmUpMs, warmUpCpuMs, firstImageMs, firstImageCpuMs, firstImageTimings: first.timingsMs, peakRssMb: peakRssMb() };
  await shutDownBackgroundRemoval();
  return out;
}

/** Child process: the first job arrives while the server is still warming up (both start together). */
async function duringWarmUpPhase() {
  const { removeBackground, warmUpBackgroundRemoval, shutDownBackgroundRemoval } = await import("@/lib/ml/background-removal");
  const imgs = await benchImages();
  const t0 = performance.now();
  const warming = warmUpBackgroundRemoval();
  const first = await removeBackground(imgs["1 MP"], OPTS);
  const firstImageMs = Math.round(performance.now() - t0);
  await warming;
  await shutDownBackgroundRemoval();
  return { firstImageMs, firstImageTimings: first.timingsMs };
}

/**
 * Latency, in this process: the bare model (session.run on a tensor prepared
 * beforehand, main thread) and the full removeBackground (worker) on the same
 * image, alternated run by run so load from other work on the machine hits both alike.
 */
async function latency() {
  const { removeBackground, warmUpBackgroundRemoval, shutDownBackgroundRemoval } = await import("@/lib/ml/background-removal");
  const model = await loadIsnetModel({ threads: engineConfig().threads });
  await warmUpBackgroundRemoval();
  const imgs = await benchImages();
  const out: Record<string, any> = {};
  for (const [label, bytes] of Object.entries(imgs)) {
    const rgb = await sharp(bytes).resize(MODEL_SIZE, MODEL_SIZE, { fit: "fill" }).raw().toBuffer();
    const tensor = toModelInput(rgb);
    await model.run(tensor); // first run of this session: not counted
    const bare: number[] = [];
    const full: number[] = [];
    let timings: Record<string, number> = {};
    for (let i = 0; i < RUNS; i++) {
      let t = performance.now();
      await model.run(tensor);
      bare.push(performance.now() - t);
      t = performance.now();
      const r = await removeBackground(bytes, OPTS);
      full.push(performance.now() - t);
      timings = r.timingsMs;
    }
    out[label] = { bare: stats(bare), full: stats(full), lastTimings: timings };
  }
  await model.release();
  // Throughput at the default concurrency: 4 images at once, queued behind the
  // limit; meanwhile the main thread's event-loop delay shows whether the engine
  // leaves it free (nothing else runs on it in this window).
  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  const t = performance.now();
  await Promise.all(Array.from({ length: 4 }, () => removeBackground(imgs["1 MP"], OPTS)));
  out.throughputPerMinute1MP = Number(((4 / (performance.now() - t)) * 60_000).toFixed(1));
  lag.disable();
  out.maxEventLoopDelayMs = Math.round(lag.max / 1e6);
  await shutDownBackgroundRemoval();
  return out;
}

function runPhase(phase: string): Record<string, any> {
  const out = execFileSync(process.execPath, [...process.execArgv, process.argv[1]!, "--phase", phase], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    maxBuffer: 16 * 2 ** 20,
  });
  return JSON.parse(out.trim().split("\n").pop()!);
}

async function main() {
  const phase = process.argv[process.argv.indexOf("--phase") + 1];
  if (process.argv.includes("--phase")) {
    const phases: Record<string, () => Promise<unknown>> = { bare: bareMemoryPhase, cold: coldStartPhase, "during-warm-up": duringWarmUpPhase };
    console.log(JSON.stringify(await phases[phase!]!()));
    return;
  }
  const cfg = engineConfig();
  const machine = `${os.availableParallelism()} x ${os.cpus()[0]?.model ?? "cpu"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  console.log(`machine: ${machine}`);
  console.log(`engine: ${cfg.workers} worker(s) x ${cfg.threads} onnxruntime thread(s); ${RUNS} runs per case; load average at start ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}\n`);
  const bare = runPhase("bare");
  const cold = runPhase("cold");
  const during = runPhase("during-warm-up");
  const lat = await latency();

  const rows = (["1 MP", "12 MP"] as const).map((label) => ({
    case: label,
    "bare p50 ms": lat[label].bare.p50,
    "bare p95 ms": lat[label].bare.p95,
    "full p50 ms": lat[label].full.p50,
    "full p95 ms": lat[label].full.p95,
    "full/bare p50": Number((lat[label].full.p50 / lat[label].bare.p50).toFixed(2)),
    "full/bare p95": Number((lat[label].full.p95 / lat[label].bare.p95).toFixed(2)),
  }));
  console.table(rows);
  console.table([
    { measure: "model load (read weights + session create), bare", value: `${bare.loadMs} ms` },
    { measure: "warmUpBackgroundRemoval in a fresh process (worker + load + tiny image)", value: `${cold.warmUpMs} ms (CPU ${cold.warmUpCpuMs} ms)` },
    { measure: "first 1 MP image after warm-up", value: `${cold.firstImageMs} ms (CPU ${cold.firstImageCpuMs} ms)` },
    {
      measure: "first 1 MP image sent at server start, during the warm-up (it replaces the warm-up image)",
      value: `${during.firstImageMs} ms (${(during.firstImageMs / (cold.warmUpMs + cold.firstImageMs)).toFixed(2)}x warm-up then image)`,
    },
    { measure: "throughput, 1 MP, default concurrency", value: `${lat.throughputPerMinute1MP} images/min` },
    { measure: "peak RSS, bare model (load + one run)", value: `${bare.peakRssMb} MB` },
    { measure: "peak RSS, engine process (warm-up, 1 MP, 12 MP)", value: `${cold.peakRssMb} MB` },
    { measure: "max event-loop delay while 4 images are processed", value: `${lat.maxEventLoopDelayMs} ms` },
  ]);
  console.log("1 MP stage timings (last run, ms):", JSON.stringify(lat["1 MP"].lastTimings));
  console.log("12 MP stage timings (last run, ms):", JSON.stringify(lat["12 MP"].lastTimings));
  console.log(`load average at end ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`);

  fs.mkdirSync("bench/results", { recursive: true });
  fs.writeFileSync(
    "bench/results/bg-model.json",
    JSON.stringify({ machine, at: new Date().toISOString(), config: cfg, runs: RUNS, bare, cold, duringWarmUp: during, latency: lat, rows }, null, 2),
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
