import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { serveFileUrls } from "@/lib/engines/ml/serve-file-urls";

/**
 * ESRGAN-slim 2x (an RDN network, MIT, by Kevin Scott for UpscalerJS) on the
 * TensorFlow.js WebAssembly backend, run in the super-resolution worker thread only.
 * The `upscaler` package itself is not used (it needs tfjs-node, which cannot
 * install here): the Keras layers model is read from the npm package's files and
 * loaded from memory with @tensorflow/tfjs-layers, so nothing is fetched.
 *
 * Files read at run time (from node_modules):
 * - @upscalerjs/esrgan-slim/models/x2/model.json and group1-shard1of1.bin
 * - @tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm{,-simd,-threaded-simd}.wasm
 */
type Tensor = { dispose(): void; data(): Promise<ArrayLike<number>> };
type Tf = {
  setBackend(name: string): Promise<boolean>;
  ready(): Promise<void>;
  tensor4d(values: Float32Array, shape: [number, number, number, number]): Tensor;
  clipByValue(t: Tensor, lo: number, hi: number): Tensor;
  round(t: Tensor): Tensor;
  cast(t: Tensor, dtype: "int32"): Tensor;
  tidy<T>(fn: () => T): T;
  io: { fromMemory(artifacts: unknown): unknown };
};
export type SrModel = { tf: Tf; predict(input: Tensor): Tensor };

export async function loadSrModel(): Promise<SrModel> {
  serveFileUrls();
  const require = createRequire(path.join(process.cwd(), "package.json"));
  const tf = require("@tensorflow/tfjs-core") as Tf;
  const wasm = require("@tensorflow/tfjs-backend-wasm") as { setWasmPaths(p: string): void };
  const layers = require("@tensorflow/tfjs-layers") as { loadLayersModel(handler: unknown): Promise<{ predict(t: Tensor): Tensor }> };
  wasm.setWasmPaths(pathToFileURL(path.dirname(require.resolve("@tensorflow/tfjs-backend-wasm"))).href + "/");
  await tf.setBackend("wasm");
  await tf.ready();
  // The package exports only its code: walk up from it to the folder that holds models/.
  let root = path.dirname(require.resolve("@upscalerjs/esrgan-slim"));
  while (!fs.existsSync(path.join(root, "models", "x2", "model.json")) && path.dirname(root) !== root) root = path.dirname(root);
  const dir = path.join(root, "models", "x2");
  const json = JSON.parse(fs.readFileSync(path.join(dir, "model.json"), "utf8")) as { modelTopology: unknown; weightsManifest: { paths: string[]; weights: unknown[] }[] };
  const bin = fs.readFileSync(path.join(dir, json.weightsManifest[0]!.paths[0]!));
  const model = await layers.loadLayersModel(
    tf.io.fromMemory({ modelTopology: json.modelTopology, weightSpecs: json.weightsManifest[0]!.weights, weightData: bin.buffer.slice(bin.byteOffset, bin.byteOffset + bin.byteLength) }),
  );
  return { tf, predict: (t) => model.predict(t) };
}

const TILE = 160;
const PAD = 8;

/**
 * 2x super-resolution of RGB pixels (0..255), in tiles of 160 px with an 8 px
 * margin (cut away after the model, so tile seams do not show), which bounds
 * the memory a large crop needs.
 */
export async function upscale2x(model: SrModel, rgb: Uint8Array, width: number, height: number): Promise<Uint8Array> {
  const { tf } = model;
  const out = new Uint8Array(width * 2 * height * 2 * 3);
  for (let ty = 0; ty < height; ty += TILE) {
    for (let tx = 0; tx < width; tx += TILE) {
      const x0 = Math.max(0, tx - PAD);
      const y0 = Math.max(0, ty - PAD);
      const x1 = Math.min(width, tx + TILE + PAD);
      const y1 = Math.min(height, ty + TILE + PAD);
      const w = x1 - x0;
      const h = y1 - y0;
      const input = new Float32Array(w * h * 3);
      for (let y = 0; y < h; y++) {
        for (let i = 0; i < w * 3; i++) input[y * w * 3 + i] = rgb[((y0 + y) * width + x0) * 3 + i]!;
      }
      const result = tf.tidy(() => tf.cast(tf.round(tf.clipByValue(model.predict(tf.tensor4d(input, [1, h, w, 3])), 0, 255)), "int32"));
      const px = await result.data();
      result.dispose();
      // Copy the tile's own area (without its margin) into place.
      const cw = Math.min(TILE, width - tx) * 2;
      const ch = Math.min(TILE, height - ty) * 2;
      const offX = (tx - x0) * 2;
      const offY = (ty - y0) * 2;
      for (let y = 0; y < ch; y++) {
        const src = ((offY + y) * w * 2 + offX) * 3;
        const dst = ((ty * 2 + y) * width * 2 + tx * 2) * 3;
        for (let i = 0; i < cw * 3; i++) out[dst + i] = px[src + i]!;
      }
    }
  }
  return out;
}
