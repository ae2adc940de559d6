import type { Worker } from "node:worker_threads";
import { engineIdleMs } from "./engine-idle";
import { engineMemory, type EngineMemoryBudget, type EngineMemorySpec } from "./engine-memory";

/** Why a request got no answer from the worker; the engine turns it into its own error. */
export class WorkerFailure extends Error {
  constructor(
    readonly kind: "timeout" | "crashed",
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "WorkerFailure";
  }
}

// Each request remembers the worker it was posted to: a worker that ends (terminated for its
// idleness, the memory budget or a time limit) fails only its own requests, never one already
// sent to its successor (the exit event arrives after the successor may have started).
type Pending = { worker: Worker; resolve: (reply: unknown) => void; reject: (err: Error) => void };
type State = { worker: Worker | null; pending: Map<number, Pending>; nextId: number; chain: Promise<unknown>; idleTimer?: NodeJS.Timeout };

export type SerialWorker<Msg, Reply> = {
  /** Sends one message (an `id` is added) once the previous one is answered; resolves with the worker's reply. */
  request(msg: Msg, opts: { timeoutMs: number; transfer?: ArrayBuffer[] }): Promise<Reply>;
  /** Stops the worker (tests, shutdown); the next request starts a new one. */
  shutDown(): Promise<void>;
};

/**
 * One engine worker per process that answers one message at a time (one model,
 * one inference at a time), kept on globalThis under `key` so every server
 * bundle and hot reload shares it. A request past its time limit terminates the
 * worker; a crash fails every pending request; the worker holds the process open
 * only while it has work, and is ended after `idleMs` without any (its model's
 * memory goes back; the next request starts a new one; null keeps it). Replies
 * are handed back raw, and failures as WorkerFailure: the engine makes its own
 * errors in its caller's bundle. With `memory`, each request waits for its room in the
 * process's engine memory budget (lib/engines/workers/engine-memory.ts), which may also end this
 * worker early when it is idle and another engine needs the room.
 */
export function serialWorker<Msg extends object, Reply extends { id: number }>(
  key: string,
  spawn: () => Worker,
  idleMs: () => number | null = engineIdleMs,
  memory?: { spec: EngineMemorySpec; budget?: EngineMemoryBudget },
): SerialWorker<Msg, Reply> {
  const g = globalThis as unknown as Record<string, State | undefined>;
  const state: State = (g[key] ??= { worker: null, pending: new Map(), nextId: 1, chain: Promise.resolve() });
  const budget = memory ? (memory.budget ?? engineMemory()) : null;
  const handle =
    memory && budget
      ? budget.register({
          ...memory.spec,
          heldNow: () => (state.worker ? memory.spec.heldMb : 0),
          releaseIfIdle: async () => idleMs() !== null && (await endIfIdle(state.worker)),
        })
      : null;

  function worker(): Worker {
    if (state.worker) return state.worker;
    const w = spawn();
    const failAll = (err: Error) => {
      if (state.worker === w) state.worker = null;
      for (const [id, p] of state.pending) {
        if (p.worker !== w) continue;
        state.pending.delete(id);
        p.reject(err);
      }
    };
    w.on("message", (reply: Reply) => {
      const p = state.pending.get(reply.id);
      if (!p) return;
      state.pending.delete(reply.id);
      if (![...state.pending.values()].some((p) => p.worker === w)) {
        w.unref();
        endWhenIdle(w);
      }
      p.resolve(reply);
    });
    w.on("error", (err) => failAll(new WorkerFailure("crashed", "The engine's worker stopped unexpectedly.", { cause: err })));
    w.on("exit", (code) => failAll(new WorkerFailure("crashed", `The engine's worker stopped unexpectedly (exit ${code}).`)));
    w.unref();
    state.worker = w;
    return w;
  }

  /** Arms the idle timer once the worker has nothing left to answer. */
  function endWhenIdle(w: Worker) {
    clearTimeout(state.idleTimer);
    const ms = idleMs();
    if (ms === null) return;
    state.idleTimer = setTimeout(() => void endIfIdle(w), ms);
    state.idleTimer.unref();
  }

  /** Ends `w` if it is still this engine's worker and has nothing to answer (its idle time, or the memory budget). */
  async function endIfIdle(w: Worker | null): Promise<boolean> {
    if (!w || state.worker !== w || state.pending.size > 0) return false;
    clearTimeout(state.idleTimer);
    state.worker = null;
    await w.terminate();
    return true;
  }

  return {
    request(msg, { timeoutMs, transfer = [] }) {
      const run = () =>
        new Promise<Reply>((resolve, reject) => {
          clearTimeout(state.idleTimer);
          const w = worker();
          const id = state.nextId++;
          const timer = setTimeout(() => {
            state.pending.delete(id);
            // The next request must not be posted to the worker being terminated.
            if (state.worker === w) state.worker = null;
            reject(new WorkerFailure("timeout", `took longer than ${Math.round(timeoutMs / 1000)} s and was stopped`));
            void w.terminate();
          }, timeoutMs);
          state.pending.set(id, {
            worker: w,
            resolve: (v) => (clearTimeout(timer), resolve(v as Reply)),
            reject: (e) => (clearTimeout(timer), reject(e)),
          });
          w.ref();
          w.postMessage({ ...msg, id }, transfer);
        });
      const gated = () => (budget && handle ? budget.run(handle, run) : run());
      const result = state.chain.then(gated, gated);
      state.chain = result.catch(() => {});
      return result;
    },
    async shutDown() {
      clearTimeout(state.idleTimer);
      const w = state.worker;
      state.worker = null;
      if (w) await w.terminate();
    },
  };
}
