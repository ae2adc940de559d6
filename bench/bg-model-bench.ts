// Background removal engine: the bare ISNet model (onnxruntime session.run on a
// prepared 1024 x 1024 tensor) against the whole removeBackground (decode, model
// input, inference in a worker thread, matte clean-up, full-size upsampling,
// edges, PNG encoding) on the same images, at 1 MP and 12 MP.
//
//   npx tsx bench/bg-model-bench.ts            (BENCH_RUNS=5 per case by default)
//   npx tsx bench/bg-model-bench.ts --steps    (only the speed steps; BENCH_STEP_RUNS=3 rounds)
//
// Speed steps: the engine's ISNet session (the current engine) against one variant at a
// time (onnxruntime threads, graph optimisation level, execution mode, memory arena, the
// package's uint8-quantised weights), all loaded in this process, run round by round on the
// same 1 MP tensor in rotating order; each step is reported as the median of its rounds'
// time ratios to the current engine in the same round, beside how far its matte strays from
// the current one (max |difference|, IoU of the two mattes cut at 0.5). A step that changes
// the numbers is then measured on the quality sets (bench/bg-quality-bench.ts).
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
import { loadIsnetModel, MODEL_SIZE, toModelInput, type IsnetModel, type IsnetSessionTuning, type IsnetWeights } from "@/lib/engines/ml/background-removal/isnet-model";
import { engineConfig } from "@/lib/engines/ml/background-removal/engine-config";
import type { BgRemovalOptions } from "@/lib/engines/ml/background-removal";

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
// The same photo again and again: the engine's remembered mattes (matte-memo.ts) would skip the model.
process.env.BG_REMOVAL_MATTE_CACHE ??= "0";
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
  const { removeBackground, warmUpBackgroundRemoval, shutDownBackgroundRemoval } = await import("@/lib/engines/ml/background-removal");
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
  const { removeBackground, warmUpBackgroundRemoval, shutDownBackgroundRemoval } = await import("@/lib/engines/ml/background-removal");
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
  const { removeBackground, warmUpBackgroundRemoval, shutDownBackgroundRemoval } = await import("@/lib/engines/ml/background-removal");
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

type Step = { name: string; threads?: number; weights?: IsnetWeights; tuning?: IsnetSessionTuning; size?: number };

/** The speed steps, each one change from the current engine (engineConfig's threads, the session options of isnet-model.ts at their defaults). */
const STEPS: Step[] = [
  { name: "2 onnxruntime threads", threads: 2 },
  // The engine runs "basic" unless kept warm (isnet-model.ts: `layout`); the other two levels:
  { name: "graph optimisation: extended", tuning: { graphOptimizationLevel: "extended" } },
  { name: "graph optimisation: all (NCHWc layout; the keep-warm setting)", tuning: { graphOptimizationLevel: "all" } },
  { name: "parallel execution, 2 inter-op threads", tuning: { executionMode: "parallel", interOpNumThreads: 2 } },
  { name: "memory arena and pattern on", tuning: { enableCpuMemArena: true, enableMemPattern: true } },
  { name: "uint8 weights (the package's small model)", weights: "small" },
  // The same weights at a smaller input: scripts/isnet-any-size.ts's graph (skipped without it).
  { name: "input 768 x 768 (any-size graph)", size: 768 },
  { name: "input 640 x 640 (any-size graph)", size: 640 },
];
const ANY_SIZE = process.env.BG_ISNET_ANY_SIZE ?? ".data/models/isnet-medium-any-size.onnx";

async function speedSteps() {
  const runs = Number(process.env.BENCH_STEP_RUNS ?? 3);
  const threads = engineConfig().threads;
  const current = await loadIsnetModel({ threads });
  const photo = (await benchImages())["1 MP"];
  const tensorAt = async (size: number) => toModelInput(await sharp(photo).resize(size, size, { fit: "fill" }).raw().toBuffer(), size);
  const steps = STEPS.filter((s) => !s.size || fs.existsSync(ANY_SIZE));
  if (steps.length < STEPS.length) console.log(`${ANY_SIZE} not found (npx tsx scripts/isnet-any-size.ts): the input-size steps are skipped.`);
  const variants: { step: Step; model: IsnetModel; tensor: Float32Array }[] = [];
  for (const step of steps) {
    const model = await loadIsnetModel({ threads: step.threads ?? threads, weights: step.weights, tuning: step.tuning, ...(step.size ? { file: ANY_SIZE, size: step.size } : {}) });
    variants.push({ step, model, tensor: await tensorAt(model.size) });
  }
  const tensor = await tensorAt(MODEL_SIZE);
  const reference = await current.run(tensor); // also the first run of the session: not counted
  const strays: Record<string, { maxDiff: number; iou: number } | { iou: string }> = {};
  for (const { step, model, tensor: input } of variants) {
    const m = await model.run(input); // first run: not counted
    if (model.size !== MODEL_SIZE) {
      strays[step.name] = { iou: "quality sets (bg-quality-bench)" };
      continue;
    }
    let maxDiff = 0, inter = 0, union = 0;
    for (let i = 0; i < m.length; i++) {
      maxDiff = Math.max(maxDiff, Math.abs(m[i]! - reference[i]!));
      const a = m[i]! >= 0.5, b = reference[i]! >= 0.5;
      if (a && b) inter++;
      if (a || b) union++;
    }
    strays[step.name] = { maxDiff: Number(maxDiff.toFixed(4)), iou: Number((inter / Math.max(1, union)).toFixed(4)) };
  }
  const ratios: Record<string, number[]> = {};
  const currentMs: number[] = [];
  const loads: number[] = [];
  for (let r = 0; r < runs; r++) {
    loads.push(os.loadavg()[0]!);
    const order = variants.map((_, i) => variants[(i + r) % variants.length]!);
    for (const { step, model, tensor: input } of order) {
      // The current engine right before each variant: both see the same moment's load.
      let t = performance.now();
      await current.run(tensor);
      const base = performance.now() - t;
      currentMs.push(base);
      t = performance.now();
      await model.run(input);
      (ratios[step.name] ??= []).push((performance.now() - t) / base);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  await Promise.all([current.release(), ...variants.map((v) => v.model.release())]);
  return {
    runs,
    threads,
    loadAverages: loads.map((l) => Number(l.toFixed(1))),
    currentMs: stats(currentMs),
    steps: steps.map((s) => ({ step: s.name, "time vs current (median)": Number(median(ratios[s.name]!).toFixed(2)), rounds: ratios[s.name]!.map((x) => Number(x.toFixed(2))), ...strays[s.name] })),
  };
}

function printSteps(steps: Awaited<ReturnType<typeof speedSteps>>) {
  console.log(`\nspeed steps: current engine ${steps.threads} thread(s), ${steps.runs} rounds, 1 MP; current p50 ${steps.currentMs.p50} ms; load averages per round ${steps.loadAverages.join(", ")}`);
  console.table(steps.steps.map((row) => ({ ...row, rounds: row.rounds.join(" ") })));
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
  if (process.argv.includes("--steps")) {
    console.log(`machine: ${os.availableParallelism()} x ${os.cpus()[0]?.model ?? "cpu"}, Node ${process.version}; load average at start ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`);
    const steps = await speedSteps();
    printSteps(steps);
    fs.mkdirSync("bench/results", { recursive: true });
    fs.writeFileSync("bench/results/bg-model-steps.json", JSON.stringify({ at: new Date().toISOString(), steps }, null, 2));
    return;
  }
  const machine = `${os.availableParallelism()} x ${os.cpus()[0]?.model ?? "cpu"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  console.log(`machine: ${machine}`);
  console.log(`engine: ${cfg.workers} worker(s) x ${cfg.threads} onnxruntime thread(s); ${RUNS} runs per case; load average at start ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}\n`);
  const bare = runPhase("bare");
  const cold = runPhase("cold");
  const during = runPhase("during-warm-up");
  const lat = await latency();
  const steps = await speedSteps();

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
  printSteps(steps);
  console.log(`load average at end ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`);

  fs.mkdirSync("bench/results", { recursive: true });
  fs.writeFileSync(
    "bench/results/bg-model.json",
    JSON.stringify({ machine, at: new Date().toISOString(), config: cfg, runs: RUNS, bare, cold, duringWarmUp: during, latency: lat, rows, steps }, null, 2),
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
