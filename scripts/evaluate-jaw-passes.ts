// How Face Crop's jaw net (jaw-model.ts) is best run (issue 37): which square it sees, how many
// passes, whether a mirrored chip is averaged in. On each marked face (iBUG .pts beside images,
// or a landmarks.json: lib/engines/ml/faces/landmark-eval.ts) the face the engine finds (decode
// and Human in this thread, as the face worker does), then each way of running the net on it;
// eye and chin error as fractions of the marked eye distance, median and p90, and the share of
// faces that needed the engine's own way (`engine`).
//
//   FACE_LANDMARK_DIR=/work/eval/landmarks/... [FACE_LANDMARK_EVERY=3] [FACE_LANDMARK_PTS_AS_WRITTEN=1] npx tsx scripts/evaluate-jaw-passes.ts
//
// Also the markup's own eye definitions on 68-point sets: the mean of an eye's six contour
// points (the scheme's eye centre, scored here) against the mid-point of its two corners (what
// the face mesh's eye is, 33/133 and 362/263), so a definition gap is told apart from a miss.
// Without FACE_LANDMARK_DIR it says so and exits 0.
import fs from "node:fs";
import path from "node:path";
import { decodeUpright, type UprightImage } from "@/lib/engines/ml/faces/decode-upright";
import { detectOnImage } from "@/lib/engines/ml/faces/detect-in-thread";
import { blendEyes, JAW_CROP, JAW_INPUT, jawInputScale, jawPass, jawPoints, jawSquareFromMesh, loadJawModel, type JawModel } from "@/lib/engines/ml/faces/jaw-model";
import { boxOf, centroid, chinErrors, dist, eyeError, readMarkup, readPts, summarise, type FaceScore, type MarkedFace } from "@/lib/engines/ml/faces/landmark-eval";
import { meshEyeContours } from "@/lib/engines/ml/faces/landmarks";
import type { DetectedFace, Point } from "@/lib/engines/ml/faces/types";

const DIR = process.env.FACE_LANDMARK_DIR;
const EVERY = Number(process.env.FACE_LANDMARK_EVERY ?? 1);


function score(file: string, m: MarkedFace, pts: Point[]): FaceScore {
  return { file, found: true, eye: eyeError(centroid(pts.slice(36, 42)), centroid(pts.slice(42, 48)), m), ...(m.chin ? chinErrors(pts[8]!, m, m.chin) : {}) };
}

async function main() {
  if (!DIR || !fs.existsSync(DIR)) {
    console.log(`evaluate-jaw-passes: skipped (FACE_LANDMARK_DIR ${DIR ? `${DIR} does not exist` : "is not set"}): see bench/README.md, "Face Crop landmarks"`);
    return;
  }
  // FACE_LANDMARK_PTS_AS_WRITTEN=1: .pts coordinates as written (1-based), as scored before issue 37's fourth stop.
  const marked = readMarkup(DIR, { ptsAsWritten: process.env.FACE_LANDMARK_PTS_AS_WRITTEN === "1" }).filter((_, i) => i % EVERY === 0);
  const model: JawModel = await loadJawModel();
  const rows: Record<string, FaceScore[]> = { mesh: [], meshContour: [], onePass: [], twoPasses: [], twoPassesMirrored: [] };
  const gap: number[] = [];
  const fits: [number, number, number][] = [];
  // The net's bias on its input (JAW_BIAS in jaw-model.ts): marked minus net, in input pixels, chin and eye centres.
  const bias: { chin: Point[]; eyes: Point[] } = { chin: [], eyes: [] };
  // The chin's error across the face's axis (signed, eye distances) by the face's turn: before and after JAW_BIAS.
  const across: { yaw: number; raw: number; now: number }[] = [];
  let cached = null as { file: string; img: UprightImage; faces: DetectedFace[]; meshes: Map<DetectedFace, [number, number, number?][]> } | null;
  for (const m of marked) {
    const file = path.relative(DIR, m.file);
    // The markup's own eye definitions (68-point .pts only): corners' mid-point against the contour's mean.
    const ptsFile = [m.file.replace(/\.\w+$/, ".pts")].find((f) => fs.existsSync(f));
    if (ptsFile) {
      const p = readPts(fs.readFileSync(ptsFile, "utf8"));
      if (p.length === 68) gap.push((dist(centroid([p[36]!, p[39]!]), m.leftEye) + dist(centroid([p[42]!, p[45]!]), m.rightEye)) / 2 / dist(m.leftEye, m.rightEye));
    }
    if (cached?.file !== m.file) {
      const img = await decodeUpright(fs.readFileSync(m.file), { maxPixels: 80e6, detectLongEdge: 1024 });
      const { faces, meshes } = await detectOnImage(img, 0.2);
      cached = { file: m.file, img, faces, meshes };
    }
    const { img, faces, meshes } = cached;
    const iod = dist(m.leftEye, m.rightEye);
    const face = faces.find((f) => dist(f.landmarks.eyeMid, centroid([m.leftEye, m.rightEye])) <= iod / 2);
    if (!face) {
      for (const k of Object.keys(rows)) rows[k]!.push({ file, found: false });
      continue;
    }
    const l = face.landmarks;
    rows.mesh!.push({ file, found: true, eye: eyeError(l.leftEye, l.rightEye, m), ...(m.chin ? chinErrors(l.chin, m, m.chin) : {}) });
    const contour = meshEyeContours(meshes.get(face)!, img.scale);
    rows.meshContour!.push({ file, found: true, eye: eyeError(contour[0], contour[1], m) });
    const first = await jawPass(model, img, face.box);
    rows.onePass!.push(score(file, m, first));
    const second = await jawPass(model, img, boxOf(first));
    rows.twoPasses!.push(score(file, m, second));
    const mirrored = await jawPass(model, img, boxOf(first), { mirrored: true });
    rows.twoPassesMirrored!.push(score(file, m, mirrored));
    const netEyes = [centroid(mirrored.slice(36, 42)), centroid(mirrored.slice(42, 48))] as const;
    (rows.onePassMirrored ??= []).push(score(file, m, await jawPass(model, img, face.box, { mirrored: true })));
    for (const w of [0.25, 0.5]) {
      const chin = { x: (1 - w) * mirrored[8]!.x + w * l.chin.x, y: (1 - w) * mirrored[8]!.y + w * l.chin.y };
      if (m.chin) (rows[`chinNetMesh${w}`] ??= []).push({ file, found: true, ...chinErrors(chin, m, m.chin) });
    }
    (rows.eyesMeshContourAndNet ??= []).push({ file, found: true, eye: eyeError(centroid([contour[0], netEyes[0]]), centroid([contour[1], netEyes[1]]), m) });
    (rows.chinTwoPassesMirroredEyesWithMesh ??= []).push({ ...rows.eyesMeshContourAndNet!.at(-1)!, ...(m.chin ? chinErrors(mirrored[8]!, m, m.chin) : {}) });
    // The first pass's points' square from the mesh's box alone (JAW_SQUARE_FROM_MESH), then one mirrored pass.
    const b68 = boxOf(first);
    const side = Math.max(face.box.w, face.box.h);
    fits.push([(b68.x + b68.w / 2 - face.box.x - face.box.w / 2) / side, (b68.y + b68.h / 2 - face.box.y - face.box.h / 2) / side, Math.max(b68.w, b68.h) / side]);
    const square = jawSquareFromMesh(face.box);
    const raw = await jawPass(model, img, square, { mirrored: true });
    (rows.oneMirroredFromMeshSquare ??= []).push(score(file, m, raw));
    const px = (Math.max(square.w, square.h) * JAW_CROP) / JAW_INPUT;
    if (m.chin) bias.chin.push({ x: (m.chin.x - raw[8]!.x) / px, y: (m.chin.y - raw[8]!.y) / px });
    const rawEyes = centroid([...raw.slice(36, 48)]);
    bias.eyes.push({ x: (centroid([m.leftEye, m.rightEye]).x - rawEyes.x) / px, y: (centroid([m.leftEye, m.rightEye]).y - rawEyes.y) / px });
    // As Face Crop runs it (jaw-model.ts and detect-in-thread.ts): the chin of one mirrored pass on the square from the mesh's box, its eyes averaged with the mesh's contour centres.
    const engine = await jawPoints(model, img, face.box);
    const eyes = blendEyes(engine, face.contourEyes, jawInputScale(img, face.box));
    (rows.engine ??= []).push({ file, found: true, eye: eyeError(eyes[0], eyes[1], m), ...(m.chin ? chinErrors(engine[8]!, m, m.chin) : {}) });
    // Before MESH_EYE_SHARE (the third stop): each eye half the net's, half the mesh's, at every size.
    const half = [centroid([centroid(engine.slice(36, 42)), face.contourEyes![0]]), centroid([centroid(engine.slice(42, 48)), face.contourEyes![1]])] as const;
    (rows.engineHalfMeshEyes ??= []).push({ file, found: true, eye: eyeError(half[0], half[1], m) });
    // The engine as the fourth stop left it (the "before" of issue 37's fifth stop): the same eyes, the chin
    // moved by (0.65, 0.83) input pixels in the image's frame and along the eye line by 0.25 × the nose tip's offset.
    const [rl, rr] = [centroid(raw.slice(36, 42)), centroid(raw.slice(42, 48))];
    const line = { x: rr.x - rl.x, y: rr.y - rl.y };
    const t = ((raw[30]!.x - (rl.x + rr.x) / 2) * line.x + (raw[30]!.y - (rl.y + rr.y) / 2) * line.y) / (line.x ** 2 + line.y ** 2 || 1);
    const oldChin = { x: raw[8]!.x + 0.65 * px + 0.25 * t * line.x, y: raw[8]!.y + 0.83 * px + 0.25 * t * line.y };
    (rows.engineFourthStop ??= []).push({ file, found: true, eye: eyeError(eyes[0], eyes[1], m), ...(m.chin ? chinErrors(oldChin, m, m.chin) : {}) });
    (rows.engineNetEyes ??= []).push({ file, found: true, eye: eyeError(centroid(engine.slice(36, 42)), centroid(engine.slice(42, 48)), m) });
    if (m.chin) {
      const mid = centroid([m.leftEye, m.rightEye]);
      const axis = { x: m.chin.x - mid.x, y: m.chin.y - mid.y };
      const n = Math.hypot(axis.x, axis.y) * dist(m.leftEye, m.rightEye);
      // Positive: the chin lies to the image-right of the marked one (for an upright face).
      const side = (p: Point) => ((p.x - m.chin!.x) * axis.y - (p.y - m.chin!.y) * axis.x) / n;
      across.push({ yaw: face.yaw, raw: side(raw[8]!), now: side(engine[8]!) });
    }
  }
  const stat = (x: ReturnType<typeof summarise>["eye"]) => (x.n ? `${x.median!.toFixed(3)} / ${x.p90!.toFixed(3)}` : "n/a");
  const found = summarise(rows.mesh!).found;
  console.log(`${DIR} (every ${EVERY}): ${marked.length} marked faces, ${found} found; square ${JAW_CROP} × the box`);
  console.log("| way | eye, median / p90 | chin | chin along the face's axis |\n|---|---|---|---|");
  for (const [k, scores] of Object.entries(rows)) {
    const s = summarise(scores);
    console.log(`| ${k} | ${stat(s.eye)} | ${stat(s.chin)} | ${stat(s.chinAlong)} |`);
  }
  const med = (k: number) => [...fits.map((f) => f[k]!)].sort((a, b) => a - b)[Math.floor(fits.length / 2)]!.toFixed(3);
  console.log(`the first pass's points' box against the mesh's box (median, in its sides): centre x ${med(0)}, y ${med(1)}, side ${med(2)}`);
  const medOf = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)] ?? NaN;
  const xy = (ps: Point[]) => `${medOf(ps.map((p) => p.x)).toFixed(2)}, ${medOf(ps.map((p) => p.y)).toFixed(2)}`;
  console.log(`the net's bias (one mirrored pass; marked minus net, median, in input pixels of ${JAW_INPUT}): chin ${xy(bias.chin)}, eye centres ${xy(bias.eyes)} (JAW_BIAS)`);
  for (const [lo, hi] of [[-90, -20], [-20, -8], [-8, 8], [8, 20], [20, 90]] as const) {
    const a = across.filter((c) => c.yaw >= lo && c.yaw < hi);
    if (a.length) console.log(`yaw ${lo}..${hi}° (${a.length}): chin across the axis, median, raw ${medOf(a.map((c) => c.raw)).toFixed(3)}, corrected ${medOf(a.map((c) => c.now)).toFixed(3)}`);
  }
  const g = [...gap].sort((a, b) => a - b);
  if (g.length) console.log(`markup: the eye corners' mid-point lies ${g[Math.floor(g.length / 2)]!.toFixed(3)} (median; p90 ${g[Math.floor(0.9 * (g.length - 1))]!.toFixed(3)}) of the eye distance from the contour's mean (${g.length} faces)`);
}

void main();
