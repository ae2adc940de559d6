import { Worker } from "node:worker_threads";
import { startWorker } from "@/lib/workers/start-worker";
import type { SrReply } from "./sr-worker";

/** The one place the super-resolution worker is started (same pattern as lib/ml/faces/detect-faces.ts). */
export function spawnSrWorker(): Worker {
  return startWorker("lib/ml/super-resolution/sr-worker.ts", () => new Worker(new URL("./sr-worker.ts", import.meta.url)));
}

type State = { worker: Worker | null; pending: Map<number, { resolve: (v: Uint8Array) => void; reject: (e: Error) => void }>; nextId: number; chain: Promise<unknown> };
const g = globalThis as unknown as { __srEngine?: State };
const state: State = (g.__srEngine ??= { worker: null, pending: new Map(), nextId: 1, chain: Promise.resolve() });

function worker(): Worker {
  if (state.worker) return state.worker;
  const w = spawnSrWorker();
  const failAll = (err: Error) => {
    if (state.worker === w) state.worker = null;
    for (const p of state.pending.values()) p.reject(err);
    state.pending.clear();
  };
  w.on("message", (msg: SrReply) => {
    const p = state.pending.get(msg.id);
    if (!p) return;
    state.pending.delete(msg.id);
    if (state.pending.size === 0) w.unref();
    if (msg.ok) p.resolve(msg.rgb);
    else p.reject(new Error(`super-resolution failed: ${msg.error}`));
  });
  w.on("error", (err) => failAll(err));
  w.on("exit", (code) => failAll(new Error(`super-resolution worker exited (${code})`)));
  w.unref();
  state.worker = w;
  return w;
}

/**
 * 2x super-resolution (ESRGAN-slim) of RGB pixels in a worker thread, one crop at
 * a time. About 30 s per input megapixel on these 2 cores: a background step only.
 */
export function superResolve2x(rgb: Uint8Array, width: number, height: number, timeoutMs = 300_000): Promise<Uint8Array> {
  const run = () =>
    new Promise<Uint8Array>((resolve, reject) => {
      const w = worker();
      const id = state.nextId++;
      const timer = setTimeout(() => {
        state.pending.delete(id);
        reject(new Error(`super-resolution took longer than ${Math.round(timeoutMs / 1000)} s`));
        void w.terminate();
      }, timeoutMs);
      state.pending.set(id, { resolve: (v) => (clearTimeout(timer), resolve(v)), reject: (e) => (clearTimeout(timer), reject(e)) });
      w.ref();
      const copy = new Uint8Array(rgb);
      w.postMessage({ id, rgb: copy, width, height }, [copy.buffer as ArrayBuffer]);
    });
  const result = state.chain.then(run, run);
  state.chain = result.catch(() => {});
  return result;
}

export async function shutDownSuperResolution(): Promise<void> {
  const w = state.worker;
  state.worker = null;
  if (w) await w.terminate();
}
