import { Worker } from "node:worker_threads";
import { startWorker } from "@/lib/workers/start-worker";
import { faceEngineConfig } from "./engine-config";
import { FaceInputError } from "./face-input-error";
import type { FaceDetection } from "./types";
import type { WorkerMessage, WorkerReply } from "./face-worker";

/** The engine failed on our side (crash, time limit): not the caller's photo. */
export class FaceEngineError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "FaceEngineError";
  }
}

/** By name as well as by class, for the reason given at isFaceInputError. */
export function isFaceEngineError(err: unknown): err is FaceEngineError {
  return err instanceof FaceEngineError || (err instanceof Error && err.name === "FaceEngineError");
}

/** The one place the face worker thread is started (how: lib/workers/start-worker.ts). */
export function spawnFaceWorker(): Worker {
  return startWorker("lib/ml/faces/face-worker.ts", () => new Worker(new URL("./face-worker.ts", import.meta.url)));
}

type Pending = { resolve: (v: unknown) => void; reject: (e: Error) => void };
type State = { worker: Worker | null; pending: Map<number, Pending>; nextId: number; chain: Promise<unknown> };
// One worker (one model, ~350 MB) per process, kept on globalThis so hot reloads reuse it.
const g = globalThis as unknown as { __faceEngine?: State };
const state: State = (g.__faceEngine ??= { worker: null, pending: new Map(), nextId: 1, chain: Promise.resolve() });

function worker(): Worker {
  if (state.worker) return state.worker;
  const w = spawnFaceWorker();
  const failAll = (err: Error) => {
    if (state.worker === w) state.worker = null;
    for (const p of state.pending.values()) p.reject(err);
    state.pending.clear();
  };
  w.on("message", (msg: WorkerReply) => {
    const p = state.pending.get(msg.id);
    if (!p) return;
    state.pending.delete(msg.id);
    if (state.pending.size === 0) w.unref();
    if (msg.ok) p.resolve(msg.result);
    else if (msg.input) p.reject(new FaceInputError(msg.input.code, msg.input.message));
    else p.reject(new FaceEngineError("Face detection failed on our side.", { cause: msg.error }));
  });
  w.on("error", (err) => failAll(new FaceEngineError("Face detection stopped unexpectedly.", { cause: err })));
  w.on("exit", (code) => failAll(new FaceEngineError(`Face detection stopped unexpectedly (exit ${code}).`)));
  w.unref();
  state.worker = w;
  return w;
}

type Unsent = WorkerMessage extends infer M ? (M extends WorkerMessage ? Omit<M, "id"> : never) : never;

function send(msg: Unsent, timeoutMs: number, transfer: ArrayBuffer[] = []): Promise<unknown> {
  // One photo at a time per worker: the wasm backend runs one inference at a time anyway.
  const run = () =>
    new Promise<unknown>((resolve, reject) => {
      const w = worker();
      const id = state.nextId++;
      const timer = setTimeout(() => {
        state.pending.delete(id);
        reject(new FaceEngineError(`Face detection took longer than ${Math.round(timeoutMs / 1000)} s and was stopped.`));
        void w.terminate();
      }, timeoutMs);
      state.pending.set(id, {
        resolve: (v) => (clearTimeout(timer), resolve(v)),
        reject: (e) => (clearTimeout(timer), reject(e)),
      });
      w.ref();
      w.postMessage({ ...msg, id } as WorkerMessage, transfer);
    });
  const result = state.chain.then(run, run);
  state.chain = result.catch(() => {});
  return result;
}

/**
 * Finds the faces in a photo: decoded upright from its EXIF orientation, with
 * boxes and landmarks in the upright image's pixels, filtered and ordered most
 * prominent first. Throws FaceInputError for a photo that cannot be used and
 * FaceEngineError when the engine fails. Runs in a worker thread.
 */
export async function detectFaces(bytes: Uint8Array): Promise<FaceDetection> {
  const cfg = faceEngineConfig();
  const copy = new Uint8Array(bytes); // transferred to the worker; the caller keeps its buffer
  return (await send(
    { kind: "detect", req: { bytes: copy, maxPixels: cfg.maxPixels, detectLongEdge: cfg.detectLongEdge, minScore: cfg.minScore } },
    cfg.timeoutMs,
    [copy.buffer as ArrayBuffer],
  )) as FaceDetection;
}

/** Loads the model ahead of the first photo (about half a second). */
export async function warmUpFaces(): Promise<void> {
  await send({ kind: "warm" }, faceEngineConfig().timeoutMs + 30_000);
}

/** Stops the worker (tests, shutdown). */
export async function shutDownFaces(): Promise<void> {
  const w = state.worker;
  state.worker = null;
  if (w) await w.terminate();
}
