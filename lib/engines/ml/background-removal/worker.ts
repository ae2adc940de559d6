import { parentPort, workerData } from "node:worker_threads";
import sharp from "sharp";
import { loadIsnetModel } from "./isnet-model";
import { rememberMattes } from "./matte-memo";
import { loadPersonModel, type PersonModel } from "./person-model";
import { loadPoseModel, type PoseModel } from "./pose-model";
import { cutOut, type EngineModels } from "./pipeline";
import { ImageInputError } from "./image-input-error";
import type { FromWorker, ToWorker, WorkerData } from "./worker-protocol";
import { transferable } from "@/lib/engines/workers/transferable";

// One engine worker: one model instance, one image at a time. Started by
// engine-pool.ts through startWorker (lib/engines/workers).
const port = parentPort!;
const { threads, layout, matteCache } = workerData as WorkerData;
const send = (msg: FromWorker, transfer: ArrayBuffer[] = []) => port.postMessage(msg, transfer);

// No sharp.concurrency() here: libvips' thread pool is shared by the whole process,
// including the server's own image work on the main thread.

const modelLoading = loadIsnetModel({ threads, layout }).then((model) => rememberMattes(model, matteCache));
modelLoading.then(
  (model) => send({ type: "ready", loadMs: Math.round(model.loadMs) }),
  (err: unknown) => send({ type: "fatal", message: err instanceof Error ? err.message : String(err) }),
);

// The person model is small but needs TensorFlow.js: loaded with the first photo that asks for it.
let personLoading: Promise<PersonModel> | undefined;
const person = () =>
  (personLoading ??= loadPersonModel({ threads }).catch((err: unknown) => {
    personLoading = undefined; // the next photo tries again
    throw err;
  }));

// The pose model (9 MB) only when the person rule has a doubtful piece for it to judge.
let poseLoading: Promise<PoseModel> | undefined;
const pose = () =>
  (poseLoading ??= loadPoseModel({ threads }).catch((err: unknown) => {
    poseLoading = undefined;
    throw err;
  }));

let tiny: Promise<Buffer> | undefined;
const tinyImage = () =>
  (tiny ??= sharp({ create: { width: 16, height: 16, channels: 3, background: "#3366cc" } }).png().toBuffer());

// Messages are handled strictly one after another.
let chain: Promise<unknown> = Promise.resolve();
port.on("message", (msg: ToWorker) => {
  chain = chain.then(() => handle(msg));
});

/** Frees what native memory the models hold before the thread ends (terminate alone may leave it to finalizers). */
async function release(): Promise<void> {
  const [isnet, personModel, poseModel] = await Promise.allSettled([modelLoading, personLoading ?? Promise.reject(new Error("none")), poseLoading ?? Promise.reject(new Error("none"))]);
  if (personModel.status === "fulfilled") personModel.value.release();
  if (poseModel.status === "fulfilled") poseModel.value.release();
  if (isnet.status === "fulfilled") await isnet.value.release();
  port.close();
  process.exit(0);
}

async function handle(msg: ToWorker): Promise<void> {
  if (msg.type === "release") return release();
  try {
    const models: EngineModels = { isnet: await modelLoading, person, pose };
    const input = msg.type === "job" ? Buffer.from(msg.input.buffer, msg.input.byteOffset, msg.input.byteLength) : await tinyImage();
    const opts = msg.type === "job" ? msg.opts : ({ subjectType: "auto", edgeSoftness: 3, highDetail: false, background: "transparent" } as const);
    const result = await cutOut(models, input, opts, msg.type === "job" ? msg.maxPixels : 1_000_000);
    // sharp's output is external memory: copied, never transferred as it is (see transferable).
    const png = transferable(result.png);
    send({ type: "done", id: msg.id, png: png.bytes, width: result.width, height: result.height, timingsMs: result.timingsMs, quality: result.quality, peopleMap: result.peopleMap }, png.transfer);
  } catch (err) {
    const input = err instanceof ImageInputError;
    send({
      type: "error",
      id: msg.id,
      kind: input ? "input" : "engine",
      message: err instanceof Error ? err.message : String(err),
    });
  }
}
