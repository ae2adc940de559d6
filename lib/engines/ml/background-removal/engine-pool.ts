import { Worker } from "node:worker_threads";
import { startWorker } from "@/lib/engines/workers/start-worker";
import { engineMemory, type EngineHandle, type EngineMemoryBudget } from "@/lib/engines/workers/engine-memory";
import { transferable } from "@/lib/engines/workers/transferable";
import { ImageInputError } from "./image-input-error";
import { PROVIDER } from "./provider";
import type { BgRemovalOptions, EngineResult } from "./types";
import type { FromWorker, ToWorker, WorkerData } from "./worker-protocol";

type Pending = {
  resolve: (msg: Extract<FromWorker, { type: "done" }>) => void;
  reject: (err: Error) => void;
};

type Slot = {
  worker: Worker;
  /** Resolves when the model is loaded, with its load time. */
  ready: Promise<number>;
  warmed?: Promise<void>;
  /** The caller's job in this worker, if any (warm-ups are not counted). */
  job: QueuedJob | null;
  loaded: boolean;
  pending: Map<number, Pending>;
  /** Ends this worker when it has been idle for the pool's idleMs (unless kept warm). */
  idleTimer?: NodeJS.Timeout;
};

type QueuedJob = {
  input: Uint8Array<ArrayBuffer>;
  opts: BgRemovalOptions;
  /** When the caller asked (before the memory budget's wait). */
  askedAt: number;
  /** When the budget let it into the pool's queue. */
  enqueuedAt: number;
  /** When a worker took it (its model may still be loading). */
  dispatchedAt?: number;
  startedAt?: number;
  /** The caller gave up (abort): a running job finishes, but its result is dropped. */
  abandoned: boolean;
  resolve: (r: EngineResult) => void;
  reject: (err: unknown) => void;
  cleanup: () => void;
};

export type PoolSettings = {
  workers: number;
  threads: number;
  maxPixels: number;
  keepWarm?: boolean;
  idleMs?: number;
  /** ISNet mattes each worker remembers by input (matte-memo.ts); default 0. */
  matteCache?: number;
  /** The process's engine memory budget (default), another one (tests), or null for none. */
  budget?: EngineMemoryBudget | null;
};

/**
 * What one worker holds once loaded and what a 1 MP run adds, measured on the whole server
 * (BENCH_JOBS=bg bench/server-memory-bench.ts: +870 MB at the peak over the idle server, ~260 MB
 * still held just after) and ISNet alone in a fresh process (bench/README.md: ~230 MB over the
 * process's own once loaded at the basic level, ~560 MB with the layout, ~600 MB more during
 * its run); the person model's TensorFlow.js heap is in the held part.
 * Larger photos take more (the full-size guided upsampling), which the budget does not see.
 */
const MEMORY = { memory: { heldMb: 300, runMb: 600 }, speed: { heldMb: 650, runMb: 550 } };

/**
 * A small pool of engine worker threads, each holding one model, with a FIFO
 * queue in front: at most `workers` images are processed at once per process,
 * and all of the heavy work (decoding, inference, matte work, PNG encoding)
 * happens off the main thread, so a busy engine never blocks HTTP handling.
 * Workers hold the process open only while they have work. Unless kept warm, a
 * worker idle for `idleMs` is ended (its models released, its thread stopped), so
 * an idle server gives the model's memory back; the next job starts a new one.
 */
export class EnginePool {
  private slots: Slot[] = [];
  private queue: QueuedJob[] = [];
  private nextId = 1;

  private readonly memory: { budget: EngineMemoryBudget; handle: EngineHandle } | null;

  constructor(private readonly settings: PoolSettings) {
    const budget = settings.budget === undefined ? engineMemory() : settings.budget;
    const spec = settings.keepWarm ? MEMORY.speed : MEMORY.memory;
    this.memory = budget && {
      budget,
      handle: budget.register({
        name: "background-removal",
        ...spec,
        heldNow: () => this.slots.length * spec.heldMb,
        releaseIfIdle: () => this.endIdleWorkers(),
      }),
    };
  }

  /** Removes the background once the run fits the engine memory budget (lib/engines/workers/engine-memory.ts). */
  run(input: Buffer, opts: BgRemovalOptions, signal?: AbortSignal): Promise<EngineResult> {
    const askedAt = performance.now();
    if (!this.memory) return this.enqueue(input, opts, askedAt, signal);
    return this.memory.budget.run(this.memory.handle, () => this.enqueue(input, opts, askedAt, signal), signal);
  }

  private enqueue(input: Buffer, opts: BgRemovalOptions, askedAt: number, signal?: AbortSignal): Promise<EngineResult> {
    if (signal?.aborted) return Promise.reject(abortError(signal));
    return new Promise<EngineResult>((resolve, reject) => {
      // Copied (see transferable): the caller's Buffer may be pooled or external.
      const job: QueuedJob = {
        input: transferable(input).bytes,
        opts,
        askedAt,
        enqueuedAt: performance.now(),
        abandoned: false,
        resolve,
        reject,
        cleanup: () => signal?.removeEventListener("abort", onAbort),
      };
      const onAbort = () => {
        job.cleanup();
        const queued = this.queue.indexOf(job);
        if (queued >= 0) this.queue.splice(queued, 1);
        else job.abandoned = true;
        reject(abortError(signal!));
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.queue.push(job);
      this.dispatch();
    });
  }

  /** Starts every worker, loads each model and runs one tiny image through each. Idempotent. */
  async warmUp(): Promise<{ loadMs: number }> {
    while (this.slots.length < this.settings.workers) this.spawn();
    const loads = await Promise.all(
      this.slots.map(async (slot) => {
        const loadMs = await slot.ready;
        // A real image already waiting for this worker warms it just as well: running the
        // tiny warm-up image first would only make that caller wait for it.
        if (slot.job) slot.warmed ??= Promise.resolve();
        slot.warmed ??= this.send(slot, { type: "warmup", id: this.nextId++ }).then(() => undefined);
        await slot.warmed;
        return loadMs;
      }),
    );
    return { loadMs: Math.max(0, ...loads) };
  }

  /** Stops all workers (tests and benchmarks); queued jobs are rejected. */
  async close(): Promise<void> {
    for (const job of this.queue.splice(0)) job.reject(new Error("The background removal engine was shut down."));
    const slots = this.slots;
    this.slots = [];
    await Promise.all(slots.map((s) => this.end(s)));
  }

  /** Workers alive now (loaded or loading): for tests and the memory benchmark. */
  get liveWorkers(): number {
    return this.slots.length;
  }

  /**
   * Ends a worker: it is asked to release its models (onnxruntime frees its arena,
   * TensorFlow.js its WebAssembly heap) and to exit; terminate() is the fallback.
   */
  private async end(slot: Slot): Promise<void> {
    clearTimeout(slot.idleTimer);
    // Held until it has exited: an idle worker is unref'd, and a caller awaiting close()
    // must not see its process end first.
    slot.worker.ref();
    const exited = new Promise<void>((resolve) => slot.worker.once("exit", () => resolve()));
    try {
      slot.worker.postMessage({ type: "release", id: this.nextId++ } satisfies ToWorker);
    } catch {
      // already gone
    }
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), 2000)));
    const how = await Promise.race([exited, timeout]);
    clearTimeout(timer);
    if (how === "timeout") await slot.worker.terminate();
  }

  /** Ends the idle workers now (the budget needs their room); never when kept warm. */
  private async endIdleWorkers(): Promise<boolean> {
    if (this.settings.keepWarm || this.queue.length > 0) return false;
    const ended = await Promise.all(this.slots.map((s) => this.endIfIdle(s)));
    return ended.includes(true);
  }

  /** Ends a worker that is still in the pool and idle (its idle time, or the memory budget). */
  private async endIfIdle(slot: Slot): Promise<boolean> {
    if (!this.isIdle(slot) || !this.slots.includes(slot)) return false;
    this.slots = this.slots.filter((s) => s !== slot);
    await this.end(slot);
    return true;
  }

  private isIdle(slot: Slot): boolean {
    return slot.loaded && slot.pending.size === 0 && slot.job === null;
  }

  /** (Re)arms or clears a worker's idle timer after each change of its state. */
  private scheduleIdleEnd(slot: Slot): void {
    clearTimeout(slot.idleTimer);
    slot.idleTimer = undefined;
    if (this.settings.keepWarm || !this.isIdle(slot) || !this.slots.includes(slot)) return;
    slot.idleTimer = setTimeout(() => void this.endIfIdle(slot), this.settings.idleMs ?? 60_000);
    slot.idleTimer.unref();
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      let slot = this.slots.find((s) => s.job === null);
      if (!slot && this.slots.length < this.settings.workers) slot = this.spawn();
      if (!slot) return;
      const job = this.queue.shift()!;
      this.start(slot, job);
    }
  }

  private start(slot: Slot, job: QueuedJob): void {
    slot.job = job;
    job.dispatchedAt = performance.now();
    this.updateRef(slot);
    void (async () => {
      try {
        await slot.ready;
        if (job.abandoned) return; // aborted while the model was loading: never started
        job.startedAt = performance.now();
        const id = this.nextId++;
        const message: ToWorker = { type: "job", id, input: job.input, opts: job.opts, maxPixels: this.settings.maxPixels };
        const done = await this.send(slot, message, [job.input.buffer]);
        if (job.abandoned) return;
        job.resolve({
          png: Buffer.from(done.png.buffer, done.png.byteOffset, done.png.byteLength),
          width: done.width,
          height: done.height,
          provider: PROVIDER,
          quality: done.quality,
          peopleMap: done.peopleMap,
          // Where a job's time goes before the worker's own steps: the memory budget's wait,
          // the wait for a free worker, and the wait for that worker's models to load
          // (0 once loaded). `queue` is the last two together, as before.
          timingsMs: {
            budgetWait: Math.round(job.enqueuedAt - job.askedAt),
            poolWait: Math.round(job.dispatchedAt! - job.enqueuedAt),
            modelLoad: Math.round(job.startedAt - job.dispatchedAt!),
            queue: Math.round(job.startedAt - job.enqueuedAt),
            ...done.timingsMs,
            total: Math.round(performance.now() - job.askedAt),
          },
        });
      } catch (err) {
        if (!job.abandoned) job.reject(err);
      } finally {
        job.cleanup();
        if (slot.job === job) slot.job = null;
        this.updateRef(slot);
        this.dispatch();
      }
    })();
  }

  /** Posts a message once the model is loaded; resolves with the worker's answer. */
  private async send(slot: Slot, message: ToWorker, transfer: ArrayBuffer[] = []): Promise<Extract<FromWorker, { type: "done" }>> {
    await slot.ready;
    if (!this.slots.includes(slot)) throw new Error("The background removal engine stopped.");
    return new Promise((resolve, reject) => {
      slot.pending.set(message.id, { resolve, reject });
      this.updateRef(slot);
      slot.worker.postMessage(message, transfer);
    });
  }

  private spawn(): Slot {
    const options = { workerData: { threads: this.settings.threads, layout: this.settings.keepWarm ?? false, matteCache: this.settings.matteCache ?? 0 } satisfies WorkerData };
    const worker = startWorker(
      "lib/engines/ml/background-removal/worker.ts",
      () => new Worker(new URL("./worker.ts", import.meta.url), options),
      options,
    );
    let markReady!: (ms: number) => void;
    let failReady!: (err: Error) => void;
    const ready = new Promise<number>((res, rej) => {
      markReady = res;
      failReady = rej;
    });
    ready.catch(() => {}); // observed by send(); avoid an unhandled rejection when nobody waits
    const slot: Slot = { worker, ready, job: null, loaded: false, pending: new Map() };
    this.slots.push(slot);

    const fail = (err: Error) => {
      this.slots = this.slots.filter((s) => s !== slot);
      failReady(err);
      for (const p of slot.pending.values()) p.reject(err);
      slot.pending.clear();
      void worker.terminate();
      this.dispatch();
    };
    worker.on("message", (msg: FromWorker) => {
      if (msg.type === "ready") {
        slot.loaded = true;
        markReady(msg.loadMs);
        this.updateRef(slot);
      } else if (msg.type === "fatal") {
        fail(new Error(`The background removal model could not be loaded: ${msg.message}`));
      } else {
        const pending = slot.pending.get(msg.id);
        slot.pending.delete(msg.id);
        this.updateRef(slot);
        if (!pending) return;
        if (msg.type === "done") pending.resolve(msg);
        else if (msg.kind === "input") pending.reject(new ImageInputError(msg.message));
        else pending.reject(new Error(`Background removal failed: ${msg.message}`));
      }
    });
    worker.on("error", (err) => fail(new Error(`The background removal engine stopped: ${err.message}`)));
    worker.on("exit", (code) => {
      clearTimeout(slot.idleTimer);
      if (this.slots.includes(slot)) fail(new Error(`The background removal engine stopped (exit code ${code}).`));
    });
    return slot;
  }

  /** An idle worker must not keep a script or test process alive; a loading or busy one must. */
  private updateRef(slot: Slot): void {
    if (!slot.loaded || slot.pending.size > 0 || slot.job !== null) slot.worker.ref();
    else slot.worker.unref();
    this.scheduleIdleEnd(slot);
  }
}

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("This operation was aborted", "AbortError");
}
