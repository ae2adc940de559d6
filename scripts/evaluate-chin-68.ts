// A jaw-aware 68-point landmark net against the face mesh's chin (issue 37): face-api's
// faceLandmark68Net (@vladmandic/face-api, MIT; trained on iBUG-style 68-point markup) run on a
// square of 1.25 mesh-box sides around each face the production engine finds, scored like
// scripts/evaluate-face-landmarks.ts (fractions of the marked eye distance; the chin also along
// the face's axis, what moves a crop's frame). Evaluation only: face-api's bundle brings its own
// tfjs (the union package), so it runs in this script's thread while the engine runs in its
// worker, never in the face worker itself.
//
//   FACE_LANDMARK_DIR=/path/to/set npx tsx scripts/evaluate-chin-68.ts
//
// Without FACE_LANDMARK_DIR it says so and exits 0.
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import sharp from "sharp";
import { detectFaces, shutDownFaces } from "@/lib/engines/ml/faces";
import { chinErrors, eyeError, readMarkup, summarise, summaryTable, type FaceScore } from "@/lib/engines/ml/faces/landmark-eval";
import type { Point } from "@/lib/engines/ml/faces/types";

const DIR = process.env.FACE_LANDMARK_DIR;
/** The crop around the mesh's tight box, in box sides (face-api's own detector boxes are looser than the mesh's). */
const CROP = 1.25;
const INPUT = 112;

type FaceApi = {
  tf: { setBackend(name: string): Promise<boolean>; ready(): Promise<void>; tensor3d(v: Uint8Array, shape: number[], dtype: string): { dispose(): void } };
  nets: { faceLandmark68Net: { loadFromDisk(dir: string): Promise<void>; detectLandmarks(t: unknown): Promise<{ positions: Point[] }> } };
};

const dist = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);
const mean = (ps: Point[]): Point => ({ x: ps.reduce((s, p) => s + p.x, 0) / ps.length, y: ps.reduce((s, p) => s + p.y, 0) / ps.length });

async function main() {
  if (!DIR || !fs.existsSync(DIR)) {
    console.log(`evaluate-chin-68: skipped (FACE_LANDMARK_DIR ${DIR ? `${DIR} does not exist` : "is not set"}): see bench/README.md, "Face Crop landmarks"`);
    return;
  }
  const root = createRequire(path.join(process.cwd(), "package.json"));
  const faceapi = root("@vladmandic/face-api/dist/face-api.node-wasm.js") as FaceApi;
  await faceapi.tf.setBackend("cpu");
  await faceapi.tf.ready();
  await faceapi.nets.faceLandmark68Net.loadFromDisk(path.join(path.dirname(root.resolve("@vladmandic/face-api/package.json")), "model"));
  const mesh: FaceScore[] = [];
  const net: FaceScore[] = [];
  for (const m of readMarkup(DIR)) {
    const bytes = fs.readFileSync(m.file);
    const file = path.basename(m.file);
    const iod = dist(m.leftEye, m.rightEye);
    const mid = mean([m.leftEye, m.rightEye]);
    const face = (await detectFaces(bytes, { crown: true })).faces.find((f) => dist(f.landmarks.eyeMid, mid) <= iod / 2);
    if (!face) {
      mesh.push({ file, found: false });
      net.push({ file, found: false });
      continue;
    }
    const side = Math.round(Math.max(face.box.w, face.box.h) * CROP);
    const left = Math.round(face.box.x + face.box.w / 2 - side / 2);
    const top = Math.round(face.box.y + face.box.h / 2 - side / 2);
    // Grey beyond the photo's edges, as the crown's square.
    const padded = await sharp(bytes).rotate().removeAlpha().extend({ top: side, bottom: side, left: side, right: side, background: "#808080" }).png().toBuffer();
    const chip = await sharp(padded).extract({ left: left + side, top: top + side, width: side, height: side }).resize(INPUT, INPUT, { fit: "fill" }).raw().toBuffer();
    const t = faceapi.tf.tensor3d(new Uint8Array(chip), [INPUT, INPUT, 3], "int32");
    const { positions } = await faceapi.nets.faceLandmark68Net.detectLandmarks(t);
    t.dispose();
    const pts = positions.map((p) => ({ x: left + (p.x / INPUT) * side, y: top + (p.y / INPUT) * side }));
    for (const [scores, eyes, chin] of [
      [mesh, [face.landmarks.leftEye, face.landmarks.rightEye], face.landmarks.chin],
      [net, [mean(pts.slice(36, 42)), mean(pts.slice(42, 48))], pts[8]!],
    ] as const) {
      scores.push({ file, found: true, yaw: face.yaw, eye: eyeError(eyes[0], eyes[1], m), ...(m.chin ? chinErrors(chin, m, m.chin) : {}) });
    }
  }
  await shutDownFaces();
  const name = path.basename(path.resolve(DIR));
  console.log(summaryTable(`${name}: face mesh (eyes 33/133, 362/263; chin 152)`, summarise(mesh)));
  console.log(summaryTable(`${name}: faceLandmark68Net (eyes 37-48, chin 9) on the mesh box × ${CROP}`, summarise(net)).split("\n").slice(2).join("\n"));
}

void main();
