// Background removal memory: resident set size (VmRSS) of a process running the
// engine as the server does (removeBackground: worker thread, ISNet on onnxruntime,
// the person model on TensorFlow.js), in fresh child processes:
// - default (engines unload after idle, the face engine too): RSS after start, peak during jobs
//   (a 1 MP portrait as "person" and the 1 MP coffee photo as "auto"), just after
//   them, and after the idle time (BG_REMOVAL_IDLE_SECONDS, 20 s here);
// - BG_REMOVAL_KEEP_WARM=true: the same with the engine warmed at start and kept;
// - BG_REMOVAL_COUNT_FACES=false: the default without counting people by their faces (no face
//   engine beside the cut-out), the baseline of that step's time and memory in the same run.
// Also the 1 MP latency (first job after start, then steady state) in each mode.
//
//   npx tsx bench/bg-memory-bench.ts          (writes bench/results/bg-memory.json)
//
// Not the whole standalone server: a process running just this engine, so the
// figures are the engine's own share (the server adds its own ~150-250 MB).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { atMegapixels, benchImages } from "./bg-bench-support";

const IDLE_SECONDS = 20;
const PORTRAIT = path.resolve("lib/engines/ml/background-removal/fixtures/person-poster.jpg");

const rssMb = () => {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync("/proc/self/status", "utf8"));
  return Math.round(Number(m![1]) / 1024);
};
const hwmMb = () => {
  const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync("/proc/self/status", "utf8"));
  return Math.round(Number(m![1]) / 1024);
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function phase() {
  const { removeBackground, warmUpBackgroundRemoval, liveBackgroundRemovalWorkers, shutDownBackgroundRemoval } = await import(
    "@/lib/engines/ml/background-removal"
  );
  const portrait = await atMegapixels(PORTRAIT, 1);
  const coffee = (await benchImages())["1 MP"];
  const t0 = performance.now();
  // What the server does at start (the provider's warm-up): nothing unless kept warm.
  await warmUpBackgroundRemoval({ atServerStart: true });
  await sleep(500);
  const afterStart = { rssMb: rssMb(), ms: Math.round(performance.now() - t0), workers: await liveBackgroundRemovalWorkers() };
  const opts = { edgeSoftness: 3, highDetail: false, background: "transparent" } as const;
  const t1 = performance.now();
  await removeBackground(portrait, { ...opts, subjectType: "person" });
  const firstJobMs = Math.round(performance.now() - t1);
  const steady: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    await removeBackground(i % 2 ? coffee : portrait, { ...opts, subjectType: i % 2 ? "auto" : "person" });
    steady.push(Math.round(performance.now() - t));
  }
  const afterJobs = { rssMb: rssMb(), peakRssMb: hwmMb(), workers: await liveBackgroundRemovalWorkers() };
  await sleep((IDLE_SECONDS + 5) * 1000);
  (globalThis as { gc?: () => void }).gc?.();
  await sleep(1000);
  const afterIdle = { rssMb: rssMb(), workers: await liveBackgroundRemovalWorkers() };
  await shutDownBackgroundRemoval();
  return { afterStart, firstJobMs, steadyMs: steady, afterJobs, afterIdle };
}

function runPhase(env: Record<string, string>) {
  const out = execFileSync(process.execPath, [...process.execArgv, "--expose-gc", process.argv[1]!, "--phase"], {
    // The same two photos again and again: the engine's remembered mattes (matte-memo.ts) would skip the model.
    env: { ...process.env, BG_REMOVAL_IDLE_SECONDS: String(IDLE_SECONDS), ENGINE_IDLE_SECONDS: String(IDLE_SECONDS), BG_REMOVAL_MATTE_CACHE: "0", ...env },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  return JSON.parse(out.trim().split("\n").at(-1)!);
}

async function main() {
  if (process.argv.includes("--phase")) {
    console.log(JSON.stringify(await phase()));
    process.exit(0);
  }
  void sharp; // loaded first in the parent too (sharp's glibc rule for worker threads)
  const results = {
    when: new Date().toISOString(),
    idleSeconds: IDLE_SECONDS,
    unloadAfterIdle: runPhase({ BG_REMOVAL_KEEP_WARM: "false" }),
    unloadAfterIdleWithoutFaces: runPhase({ BG_REMOVAL_KEEP_WARM: "false", BG_REMOVAL_COUNT_FACES: "false" }),
    keepWarm: runPhase({ BG_REMOVAL_KEEP_WARM: "true" }),
  };
  console.log(JSON.stringify(results, null, 2));
  fs.mkdirSync("bench/results", { recursive: true });
  fs.writeFileSync("bench/results/bg-memory.json", JSON.stringify(results, null, 2));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
