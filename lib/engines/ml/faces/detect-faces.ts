import { Worker } from "node:worker_threads";
import { serialWorker, type WorkerFailure } from "@/lib/engines/workers/serial-worker";
import { startWorker } from "@/lib/engines/workers/start-worker";
import { engineIdleMs } from "@/lib/engines/workers/engine-idle";
import { faceEngineConfig } from "./engine-config";
import { FaceInputError } from "./face-input-error";
import type { FaceDescriptions, FaceDetection } from "./types";
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

/** The one place the face worker thread is started (how: lib/engines/workers/start-worker.ts). */
export function spawnFaceWorker(): Worker {
  return startWorker("lib/engines/ml/faces/face-worker.ts", () => new Worker(new URL("./face-worker.ts", import.meta.url)));
}

type Unsent = WorkerMessage extends infer M ? (M extends WorkerMessage ? Omit<M, "id"> : never) : never;

// One worker per process; one photo at a time (the wasm backend runs one inference at a time
// anyway). Memory measured in one process (obama.jpg, detect then describe twice): ~140 MB with
// the detector, ~230 MB with the recognition net too, ~30 MB more while a photo runs.
const engine = serialWorker<Unsent, WorkerReply>("__faceEngine", spawnFaceWorker, engineIdleMs, {
  spec: { name: "faces", heldMb: 230, runMb: 30 },
});

/** Sends one message; the errors are made here, in the caller's bundle (see isFaceInputError). */
async function send(msg: Unsent, timeoutMs: number, transfer: ArrayBuffer[] = []): Promise<unknown> {
  let reply: WorkerReply;
  try {
    reply = await engine.request(msg, { timeoutMs, transfer });
  } catch (err) {
    if ((err as WorkerFailure).kind === "timeout") throw new FaceEngineError(`Face detection took longer than ${Math.round(timeoutMs / 1000)} s and was stopped.`);
    throw new FaceEngineError("Face detection stopped unexpectedly.", { cause: err });
  }
  if (reply.ok) return reply.result;
  if (reply.input) throw new FaceInputError(reply.input.code, reply.input.message);
  throw new FaceEngineError("Face detection failed on our side.", { cause: reply.error });
}

/**
 * Finds the faces in a photo: decoded upright from its EXIF orientation, with
 * boxes and landmarks in the upright image's pixels, filtered and ordered most
 * prominent first. Throws FaceInputError for a photo that cannot be used and
 * FaceEngineError when the engine fails. Runs in a worker thread. `crown` (Face Crop): the most
 * prominent face's eyes and chin come from the jaw-aware net (jaw-model.ts; `jaw: false` keeps
 * the mesh's, for the bench's baseline) and its crown from the person's outline (person-crown.ts;
 * `topLook: false` decides a cut head on the head's square alone, without the finer look at its top:
 * the bench's baseline).
 */
export async function detectFaces(bytes: Uint8Array, opts: { crown?: boolean; jaw?: boolean; topLook?: boolean } = {}): Promise<FaceDetection> {
  const cfg = faceEngineConfig();
  const copy = new Uint8Array(bytes); // transferred to the worker; the caller keeps its buffer
  return (await send(
    { kind: "detect", req: { bytes: copy, maxPixels: cfg.maxPixels, detectLongEdge: cfg.detectLongEdge, minScore: cfg.minScore, crown: opts.crown, jaw: opts.jaw, topLook: opts.topLook } },
    cfg.timeoutMs,
    [copy.buffer as ArrayBuffer],
  )) as FaceDetection;
}

/**
 * Finds the faces as detectFaces does (same faces, order, filters and errors) and
 * gives each an identity embedding: the face aligned from its eyes and mouth onto
 * the recognition net's 150 px chip (upright, standard scale), embedded by dlib's
 * ResNet and L2-normalised. At most `maxFaces` (default 50), most prominent first.
 * Compare embeddings with faceSimilarity / rankCandidates. Runs in the face worker.
 */
export async function describeFaces(bytes: Uint8Array, opts: { maxFaces?: number } = {}): Promise<FaceDescriptions> {
  const cfg = faceEngineConfig();
  const copy = new Uint8Array(bytes);
  const req = { bytes: copy, maxPixels: cfg.maxPixels, detectLongEdge: cfg.detectLongEdge, embedLongEdge: cfg.embedLongEdge, minScore: cfg.minScore, maxFaces: opts.maxFaces ?? 50 };
  const result = (await send({ kind: "describe", req }, cfg.timeoutMs, [copy.buffer as ArrayBuffer])) as FaceDescriptions;
  return result;
}

/**
 * Loads the model ahead of the first photo (about half a second); `embed` loads the recognition
 * net too. At server start (`atServerStart`) it does nothing unless the engines are kept warm
 * (ENGINE_KEEP_WARM): an engine that is ended after idling would only hold its ~175 MB for a
 * minute, and the first photo's half second is the price of an idle server's memory.
 */
export async function warmUpFaces(opts: { embed?: boolean; atServerStart?: boolean } = {}): Promise<void> {
  if (opts.atServerStart && engineIdleMs() !== null) return;
  await send({ kind: "warm", embed: opts.embed }, faceEngineConfig().timeoutMs + 30_000);
}

/** Stops the worker (tests, shutdown). */
export function shutDownFaces(): Promise<void> {
  return engine.shutDown();
}
