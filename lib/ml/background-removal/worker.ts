import { parentPort, workerData } from "node:worker_threads";
import sharp from "sharp";
import { loadIsnetModel } from "./isnet-model";
import { cutOut } from "./pipeline";
import { ImageInputError } from "./image-input-error";
import type { FromWorker, ToWorker, WorkerData } from "./worker-protocol";
import { transferable } from "../../workers/transferable";

// One engine worker: one model instance, one image at a time. Started by
// engine-pool.ts through startWorker (lib/workers).
const port = parentPort!;
const { threads } = workerData as WorkerData;
const send = (msg: FromWorker, transfer: ArrayBuffer[] = []) => port.postMessage(msg, transfer);

// No sharp.concurrency() here: libvips' thread pool is shared by the whole process,
// including the server's own image work on the main thread.

const modelLoading = loadIsnetModel({ threads });
modelLoading.then(
  (model) => send({ type: "ready", loadMs: Math.round(model.loadMs) }),
  (err: unknown) => send({ type: "fatal", message: err instanceof Error ? err.message : String(err) }),
);

let tiny: Promise<Buffer> | undefined;
const tinyImage = () =>
  (tiny ??= sharp({ create: { width: 16, height: 16, channels: 3, background: "#3366cc" } }).png().toBuffer());

// Messages are handled strictly one after another.
let chain: Promise<unknown> = Promise.resolve();
port.on("message", (msg: ToWorker) => {
  chain = chain.then(() => handle(msg));
});

async function handle(msg: ToWorker): Promise<void> {
  try {
    const model = await modelLoading;
    const input = msg.type === "job" ? Buffer.from(msg.input.buffer, msg.input.byteOffset, msg.input.byteLength) : await tinyImage();
    const opts = msg.type === "job" ? msg.opts : ({ subjectType: "auto", edgeSoftness: 3, highDetail: false, background: "transparent" } as const);
    const result = await cutOut(model, input, opts, msg.type === "job" ? msg.maxPixels : 1_000_000);
    // sharp's output is external memory: copied, never transferred as it is (see transferable).
    const png = transferable(result.png);
    send({ type: "done", id: msg.id, png: png.bytes, width: result.width, height: result.height, timingsMs: result.timingsMs }, png.transfer);
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
