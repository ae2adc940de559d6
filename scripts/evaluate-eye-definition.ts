// Issue 37 (fifth stop): where a preset's eye line should run. Face Crop's eye line is meant through the
// pupils (ISO/IEC 19794-5 and ICAO 9303: the centres of the eyes of a subject looking into the camera);
// the public 68-point sets (300-W's HELEN, LFPW, AFW) mark an eye as its six contour points, whose mean
// the evaluations score against. This measures the gap between the two definitions on marked faces:
// MediaPipe's iris model (Human's `iris`, shipped in @vladmandic/human/models, evaluation only: Face Crop
// does not run it) finds each pupil; the marked contour mean minus that pupil, in the face's frame
// (along the marked eye line; down across it), in marked eye distances, for each eye; and the same for
// Face Crop's eyes (the jaw net's blended with the mesh's, jaw-model.ts), so it shows which of the two
// definitions Face Crop's eyes follow.
//
//   FACE_LANDMARK_DIR=/work/eval-crop6/spinkoo/helen/trainset [FACE_LANDMARK_EVERY=2] npx tsx scripts/evaluate-eye-definition.ts
//
// Without FACE_LANDMARK_DIR it says so and exits 0.
import fs from "node:fs";
import { decodeUpright } from "@/lib/engines/ml/faces/decode-upright";
import { detectOnImage } from "@/lib/engines/ml/faces/detect-in-thread";
import { loadHuman } from "@/lib/engines/ml/faces/human-model";
import { blendEyes, jawInputScale, jawPoints, loadJawModel } from "@/lib/engines/ml/faces/jaw-model";
import { centroid, dist, readMarkup } from "@/lib/engines/ml/faces/landmark-eval";
import type { Point } from "@/lib/engines/ml/faces/types";

const DIR = process.env.FACE_LANDMARK_DIR;
const EVERY = Number(process.env.FACE_LANDMARK_EVERY ?? 1);

const med = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)] ?? NaN;

async function main() {
  if (!DIR || !fs.existsSync(DIR)) {
    console.log(`evaluate-eye-definition: skipped (FACE_LANDMARK_DIR ${DIR ? `${DIR} does not exist` : "is not set"})`);
    return;
  }
  const marked = readMarkup(DIR).filter((_, i) => i % EVERY === 0);
  const human = await loadHuman({ minConfidence: 0.2, maxFaces: 30, iris: true });
  const jaw = await loadJawModel();
  // Per face: [contour − pupil, Face Crop's eye − pupil, Face Crop's eye − contour] as (along, down) per eye, in marked eye distances.
  const gaps: { contour: Point[]; engine: Point[]; engineToContour: Point[] } = { contour: [], engine: [], engineToContour: [] };
  let used = 0;
  for (const m of marked) {
    const img = await decodeUpright(fs.readFileSync(m.file), { maxPixels: 80e6, detectLongEdge: 1024 });
    const iod = dist(m.leftEye, m.rightEye);
    const mid = centroid([m.leftEye, m.rightEye]);
    const t = human.tf.tensor3d(new Uint8Array(img.rgb.buffer, img.rgb.byteOffset, img.rgb.byteLength), [img.rgbHeight, img.rgbWidth, 3], "int32");
    const res = await human.detect(t);
    t.dispose();
    // MediaPipe's iris centres (mesh 468 and 473 when the iris model runs), in source pixels; image-left first.
    const irises = res.face.filter((f) => f.mesh.length >= 478).map((f) => [f.mesh[468]!, f.mesh[473]!].map(([x, y]) => ({ x: x * img.scale, y: y * img.scale })).sort((a, b) => a.x - b.x) as [Point, Point]);
    const iris = irises.find(([a, b]) => dist(centroid([a, b]), mid) <= iod / 2);
    const { faces } = await detectOnImage(img, 0.2);
    const face = faces.find((f) => dist(f.landmarks.eyeMid, mid) <= iod / 2);
    if (!iris || !face) continue;
    const eyes = blendEyes(await jawPoints(jaw, img, face.box), face.contourEyes, jawInputScale(img, face.box));
    const u = { x: (m.rightEye.x - m.leftEye.x) / iod, y: (m.rightEye.y - m.leftEye.y) / iod };
    const frame = (d: Point): Point => ({ x: (d.x * u.x + d.y * u.y) / iod, y: (-d.x * u.y + d.y * u.x) / iod });
    const marks = [m.leftEye, m.rightEye];
    for (const i of [0, 1]) {
      // Along the eye line, outward positive for either eye (a definition gap is mirror-symmetric; a frame offset is not).
      const out = (p: Point): Point => (i === 0 ? { x: -p.x, y: p.y } : p);
      gaps.contour.push(out(frame({ x: marks[i]!.x - iris[i]!.x, y: marks[i]!.y - iris[i]!.y })));
      gaps.engine.push(out(frame({ x: eyes[i]!.x - iris[i]!.x, y: eyes[i]!.y - iris[i]!.y })));
      gaps.engineToContour.push(out(frame({ x: eyes[i]!.x - marks[i]!.x, y: eyes[i]!.y - marks[i]!.y })));
    }
    used++;
  }
  console.log(`${DIR} (every ${EVERY}): ${marked.length} marked faces, ${used} with a pupil pair from the iris model and Face Crop's face`);
  console.log("| offset, median, marked eye distances (outward; down) | along | down | distance |\n|---|---|---|---|");
  for (const [k, v] of Object.entries(gaps)) console.log(`| ${k} | ${med(v.map((p) => p.x)).toFixed(3)} | ${med(v.map((p) => p.y)).toFixed(3)} | ${med(v.map((p) => Math.hypot(p.x, p.y))).toFixed(3)} |`);
}

void main();
