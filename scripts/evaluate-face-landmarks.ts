// Scores Face Crop's eyes, chin and crown against human markup, and detection recall
// (lib/engines/ml/faces/landmark-eval.ts says how), as the production engine finds them
// (detectFaces with the crown from the person matte, in its worker thread), and compares
// the face mesh's chin candidates (152, the point used; 175, 199, 200) on the same faces.
//
//   FACE_LANDMARK_DIR=/path/to/set npx tsx scripts/evaluate-face-landmarks.ts
//
// The set: a folder (searched recursively) of images with iBUG 68-point `.pts` markup
// beside them (300-W's afw/helen/lfpw/ibug folders as distributed: academic and
// non-commercial, so read from where they were put, never committed), or a
// `landmarks.json` (the committed subset: FACE_LANDMARK_DIR=test/fixtures/faces).
// FACE_LANDMARK_LIMIT caps the number of faces. Without FACE_LANDMARK_DIR the script says
// so and exits 0: nothing is downloaded.
import fs from "node:fs";
import path from "node:path";
import { detectFaces, shutDownFaces } from "@/lib/engines/ml/faces";
import { decodeUpright } from "@/lib/engines/ml/faces/decode-upright";
import { detectOnImage } from "@/lib/engines/ml/faces/detect-in-thread";
import { readMarkup, scoreFace, summarise, summaryTable, type FaceScore } from "@/lib/engines/ml/faces/landmark-eval";

const DIR = process.env.FACE_LANDMARK_DIR;
const LIMIT = Number(process.env.FACE_LANDMARK_LIMIT ?? "0");
const CHIN_CANDIDATES = [152, 175, 199, 200];

async function main() {
  if (!DIR || !fs.existsSync(DIR)) {
    console.log(`evaluate-face-landmarks: skipped (FACE_LANDMARK_DIR ${DIR ? `${DIR} does not exist` : "is not set"}): see bench/README.md, "Face Crop landmarks"`);
    return;
  }
  let marked = readMarkup(DIR);
  if (LIMIT) marked = marked.slice(0, LIMIT);
  const byFile = new Map<string, typeof marked>();
  for (const m of marked) byFile.set(m.file, [...(byFile.get(m.file) ?? []), m]);
  const scores: FaceScore[] = [];
  const chinErr = new Map<number, number[]>(CHIN_CANDIDATES.map((i) => [i, []]));
  const started = performance.now();
  for (const [file, faces] of byFile) {
    const bytes = fs.readFileSync(file);
    let detection;
    try {
      detection = await detectFaces(bytes, { crown: true });
    } catch (err) {
      console.error(`${path.basename(file)}: ${(err as Error).message}`);
      for (let i = 0; i < faces.length; i++) scores.push({ file: path.basename(file), found: false });
      continue;
    }
    for (const m of faces) scores.push(scoreFace(m, detection));
    // The mesh's chin candidates, on the faces that have a marked chin (first pass, in this thread).
    const img = await decodeUpright(bytes, { maxPixels: 60e6, detectLongEdge: 1024 });
    const { meshes } = await detectOnImage(img, 0.25);
    for (const m of faces) {
      if (!m.chin) continue;
      const iod = Math.hypot(m.leftEye.x - m.rightEye.x, m.leftEye.y - m.rightEye.y);
      const mid = { x: (m.leftEye.x + m.rightEye.x) / 2, y: (m.leftEye.y + m.rightEye.y) / 2 };
      const hit = [...meshes].find(([f]) => Math.hypot(f.landmarks.eyeMid.x - mid.x, f.landmarks.eyeMid.y - mid.y) <= iod / 2);
      if (!hit) continue;
      for (const i of CHIN_CANDIDATES) {
        const p = hit[1][i]!;
        chinErr.get(i)!.push(Math.hypot(p[0] * img.scale - m.chin.x, p[1] * img.scale - m.chin.y) / iod);
      }
    }
  }
  const ms = performance.now() - started;
  await shutDownFaces();
  console.log(summaryTable(path.basename(path.resolve(DIR)), summarise(scores)));
  console.log(`\n${byFile.size} photos in ${(ms / 1000).toFixed(1)} s (${(ms / Math.max(1, byFile.size)).toFixed(0)} ms a photo, both passes).`);
  console.log("\n| mesh chin point | median error | n |\n|---|---|---|");
  for (const [i, v] of chinErr) {
    v.sort((a, b) => a - b);
    console.log(`| ${i}${i === 152 ? " (used)" : ""} | ${v.length ? v[Math.floor((v.length - 1) / 2)]!.toFixed(3) : "n/a"} | ${v.length} |`);
  }
  if (scores.length <= 30) {
    const r = (v: number | undefined) => (v === undefined ? "n/a" : v.toFixed(3));
    console.log("\n| photo | yaw | eye | chin | chin along the axis | crown | crown source |\n|---|---|---|---|---|---|---|");
    for (const s of scores) console.log(`| ${s.file} | ${s.yaw ?? "n/a"}° | ${r(s.eye)} | ${r(s.chin)} | ${r(s.chinAlong)} | ${r(s.crown)} | ${s.crownSource ?? (s.found ? "" : "not found")} |`);
  }
  const missed = scores.filter((s) => !s.found).map((s) => s.file);
  if (missed.length) console.log(`\nnot found: ${missed.slice(0, 20).join(", ")}${missed.length > 20 ? ", …" : ""}`);
}

void main();
