import { Worker } from "node:worker_threads";
import { startWorker } from "@/lib/engines/workers/start-worker";
import { transferable } from "@/lib/engines/workers/transferable";
import type { AnalysisLimits, AnalysisResult, PreflightFileType } from "./analyze-file";
import type { CheckTargets } from "./issue";

/** Why an analysis produced no result. Messages are written for the caller. */
export class AnalysisError extends Error {
  constructor(
    readonly kind: "timeout" | "out_of_memory" | "crashed" | "failed" | "busy",
    message: string,
    readonly internal?: string,
  ) {
    super(message);
    this.name = "AnalysisError";
  }
}

export type RunOptions = { timeoutMs: number; memoryMb: number; concurrency: number };

type Pool = { idle: { worker: Worker; jobs: number; memoryMb: number }[]; running: number; waiting: (() => void)[] };
// One pool per process, kept on globalThis so hot reloads in development reuse it.
const g = globalThis as unknown as { __preflightPool?: Pool };
const pool: Pool = (g.__preflightPool ??= { idle: [], running: 0, waiting: [] });

/** A worker is replaced after this many analyses, so slow leaks in engines cannot accumulate. */
const JOBS_PER_WORKER = 50;

function spawn(memoryMb: number): Worker {
  const options = { resourceLimits: { maxOldGenerationSizeMb: memoryMb } };
  const worker = startWorker(
    "lib/services/preflight/analysis-worker.ts",
    () => new Worker(new URL("./analysis-worker.ts", import.meta.url), options),
    options,
  );
  // An idle worker that fails must not take the server down with an unhandled
  // 'error' event; it simply leaves the pool (jobs in flight have their own listeners).
  worker.on("error", () => {});
  worker.on("exit", () => {
    const at = pool.idle.findIndex((s) => s.worker === worker);
    if (at >= 0) pool.idle.splice(at, 1);
  });
  return worker;
}

async function acquire(concurrency: number, waitMs: number): Promise<void> {
  if (pool.running < concurrency) {
    pool.running++;
    return;
  }
  await new Promise<void>((resolve, reject) => {
    const turn = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      pool.waiting.splice(pool.waiting.indexOf(turn), 1);
      reject(new AnalysisError("busy", "Preflight is busy with other files; try again in a minute."));
    }, waitMs);
    pool.waiting.push(turn);
  });
}

function release(): void {
  const next = pool.waiting.shift();
  // The slot passes straight to the next waiter; otherwise it is freed.
  if (next) next();
  else pool.running--;
}

/**
 * Runs one analysis in a worker thread with a time limit and a heap limit.
 * `bytes` is copied to the worker (see transferable); the caller keeps its own.
 */
export async function runAnalysis(bytes: Uint8Array, fileType: PreflightFileType, targets: CheckTargets, limits: AnalysisLimits, opts: RunOptions): Promise<AnalysisResult> {
  await acquire(opts.concurrency, opts.timeoutMs);
  // Only a worker started with the same heap limit is reused (the limit is fixed at start).
  const reusable = pool.idle.findIndex((s) => s.memoryMb === opts.memoryMb);
  const slot = reusable >= 0 ? pool.idle.splice(reusable, 1)[0]! : { worker: spawn(opts.memoryMb), jobs: 0, memoryMb: opts.memoryMb };
  const { worker } = slot;
  worker.ref();
  let healthy = true;
  try {
    return await new Promise<AnalysisResult>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        worker.off("message", onMessage);
        worker.off("error", onError);
        worker.off("exit", onExit);
      };
      const timer = setTimeout(() => {
        done();
        healthy = false;
        reject(new AnalysisError("timeout", `The file took longer than ${formatSeconds(opts.timeoutMs)} to analyse and was stopped; simplify it or split it into smaller files.`));
      }, opts.timeoutMs);
      const onMessage = (msg: { ok: true; result: AnalysisResult } | { ok: false; error: string }) => {
        done();
        if (msg.ok) resolve(msg.result);
        else reject(new AnalysisError("failed", "The file could not be analysed.", msg.error));
      };
      const onError = (err: Error & { code?: string }) => {
        done();
        healthy = false;
        if (err.code === "ERR_WORKER_OUT_OF_MEMORY") reject(new AnalysisError("out_of_memory", `The file needs more than ${opts.memoryMb} MB of memory to analyse; simplify it or split it into smaller files.`));
        else reject(new AnalysisError("crashed", "The analysis stopped unexpectedly.", String(err.stack ?? err)));
      };
      const onExit = (code: number) => {
        done();
        healthy = false;
        reject(new AnalysisError("crashed", "The analysis stopped unexpectedly.", `worker exited with code ${code}`));
      };
      worker.on("message", onMessage);
      worker.once("error", onError);
      worker.once("exit", onExit);
      const payload = transferable(bytes);
      worker.postMessage({ bytes: payload.bytes, fileType, targets, limits }, payload.transfer);
    });
  } finally {
    slot.jobs++;
    if (healthy && slot.jobs < JOBS_PER_WORKER) {
      // Idle workers must not keep a CLI or test process alive.
      worker.unref();
      pool.idle.push(slot);
    } else {
      void worker.terminate();
    }
    release();
  }
}

function formatSeconds(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
}
