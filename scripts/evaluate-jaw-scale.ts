// Issue 37: how the jaw net's offset and Face Crop's eye and chin error change with the face's size
// in pixels. Each marked face of a folder (iBUG .pts beside images) is run as it is (0 in
// FACE_JAW_SCALE_IODS) and again with its photo DOWNSCALED (sharp, the markup scaled with it) so its
// marked eye distance in the detection copy is each of FACE_JAW_SCALE_IODS pixels (not where the
// photo would go under 64 px a side, or the face is already that small); the face the engine finds (decode and Human
// in this thread, as the face worker does) then the net's raw mirrored pass on the square Face Crop
// uses, sampled as production samples it and bilinearly. Everything is written to FACE_JAW_SCALE_OUT
// (JSON, outside the repository: the photos' markup) for `--analyse` (the net's offset and the errors
// by size), `--rules` (the mesh's share in the eyes by size and by turn) and `--fit` (the grids that
// chose MESH_EYE_SHARE and kept JAW_BIAS's chin without a size term; bench/README.md, fourth stop).
//
//   FACE_LANDMARK_DIR=/work/eval-crop4/spinkoo/helen/trainset FACE_LANDMARK_EVERY=6 FACE_JAW_SCALE_OUT=/work/eval-crop5/tune.json npx tsx scripts/evaluate-jaw-scale.ts
//   FACE_JAW_SCALE_OUT=/work/eval-crop5/tune.json npx tsx scripts/evaluate-jaw-scale.ts --analyse   # or --rules, --fit
import fs from "node:fs";
import sharp from "sharp";
import { decodeUpright, type UprightImage } from "@/lib/engines/ml/faces/decode-upright";
import { detectOnImage } from "@/lib/engines/ml/faces/detect-in-thread";
import { JAW_CROP, JAW_INPUT, jawSquareFromMesh, loadJawModel, type JawModel } from "@/lib/engines/ml/faces/jaw-model";
import { centroid, dist, ptsToPixels, readPts } from "@/lib/engines/ml/faces/landmark-eval";
import { sampleSquare } from "@/lib/engines/ml/faces/sample-square";
import type { Box, Point } from "@/lib/engines/ml/faces/types";

const DIR = process.env.FACE_LANDMARK_DIR;
const EVERY = Number(process.env.FACE_LANDMARK_EVERY ?? 1);
const OUT = process.env.FACE_JAW_SCALE_OUT;
const IODS = (process.env.FACE_JAW_SCALE_IODS ?? "0,48,32,22,16").split(",").map(Number);

export type Sample = {
  file: string;
  /** Photo scale against the file (1: as it is). */
  s: number;
  /** The marked eye distance in detection pixels, and source pixels per detection pixel. */
  iodDet: number;
  scale: number;
  yaw: number;
  /** The marked 68 points in the scaled photo's pixel coordinates (the first pixel spans 0-1, as the engine's): .pts are 1-based pixel centres (ptsToPixels). */
  marked: Point[];
  /** The square the net sees (source pixels of the scaled photo): its side. */
  side: number;
  /** Raw mirrored points (source pixels): production's sampler, bilinear. */
  nearest: Point[];
  bilinear: Point[];
  contourEyes: [Point, Point];
  /** The mesh's own chin (152) and eyes (corners' mid-points), source pixels (absent in dumps before issue 37's fifth stop). */
  meshChin?: Point;
  meshEyes?: [Point, Point];
};

/** A square (detection pixels) as an n × n RGB input, each input pixel bilinear at its centre (grey outside). */
export function sampleSquareBilinear(img: Pick<UprightImage, "rgb" | "rgbWidth" | "rgbHeight">, left: number, top: number, side: number, n: number, scale: number): Float32Array {
  const cell = side / n;
  const { rgb, rgbWidth: w, rgbHeight: h } = img;
  const out = new Float32Array(n * n * 3);
  const px = (x: number, y: number, c: number) => (x < 0 || y < 0 || x >= w || y >= h ? 128 : rgb[(y * w + x) * 3 + c]!);
  let o = 0;
  for (let v = 0; v < n; v++) {
    const fy = top + (v + 0.5) * cell - 0.5;
    const y0 = Math.floor(fy);
    const ty = fy - y0;
    for (let u = 0; u < n; u++) {
      const fx = left + (u + 0.5) * cell - 0.5;
      const x0 = Math.floor(fx);
      const tx = fx - x0;
      for (let c = 0; c < 3; c++) {
        const a = px(x0, y0, c) * (1 - tx) + px(x0 + 1, y0, c) * tx;
        const b = px(x0, y0 + 1, c) * (1 - tx) + px(x0 + 1, y0 + 1, c) * tx;
        out[o++] = (a * (1 - ty) + b * ty) * 4 * scale;
      }
    }
  }
  return out;
}

async function pass(model: JawModel, img: UprightImage, box: Box, sampler: typeof sampleSquare): Promise<Point[]> {
  const k = 1 / img.scale;
  const side = Math.max(box.w, box.h) * JAW_CROP * k;
  const left = (box.x + box.w / 2) * k - side / 2;
  const top = (box.y + box.h / 2) * k - side / 2;
  const unit = await model.run(sampler(img, left, top, side, JAW_INPUT, 1 / 4), { mirrored: true });
  return unit.map((q) => ({ x: (left + q.x * side) * img.scale, y: (top + q.y * side) * img.scale }));
}


async function collect() {
  if (!DIR || !fs.existsSync(DIR) || !OUT) {
    console.log("evaluate-jaw-scale: skipped (FACE_LANDMARK_DIR and FACE_JAW_SCALE_OUT needed)");
    return;
  }
  const files = fs.readdirSync(DIR).filter((f) => f.endsWith(".pts")).sort().filter((_, i) => i % EVERY === 0);
  const model = await loadJawModel();
  const out: Sample[] = [];
  let missed = 0;
  for (const name of files) {
    const stem = name.slice(0, -4);
    const image = [stem, stem.replace(/_\d+$/, "")].flatMap((s) => [".jpg", ".png"].map((e) => `${DIR}/${s}${e}`)).find((f) => fs.existsSync(f));
    const pts = readPts(fs.readFileSync(`${DIR}/${name}`, "utf8"));
    if (!image || pts.length !== 68) continue;
    const bytes = fs.readFileSync(image);
    const meta = await sharp(bytes).rotate().metadata();
    const [W, H] = [meta.width!, meta.height!];
    const iod = dist(centroid(pts.slice(36, 42)), centroid(pts.slice(42, 48)));
    const native = iod / Math.max(1, Math.max(W, H) / 1024);
    for (const target of IODS) {
      const s = target === 0 ? 1 : target / iod;
      if (target !== 0 && (target >= native * 0.9 || Math.min(W, H) * (target / iod) < 64)) continue;
      const photo = s === 1 ? bytes : await sharp(bytes).rotate().resize(Math.round(W * s), Math.round(H * s), { fit: "fill" }).jpeg({ quality: 92 }).toBuffer();
      const sx = s === 1 ? 1 : Math.round(W * s) / W;
      const sy = s === 1 ? 1 : Math.round(H * s) / H;
      const marked = ptsToPixels(pts).map((p) => ({ x: p.x * sx, y: p.y * sy }));
      const img = await decodeUpright(photo, { maxPixels: 80e6, detectLongEdge: 1024 });
      const { faces, meshes } = await detectOnImage(img, 0.2);
      const mid = centroid([centroid(marked.slice(36, 42)), centroid(marked.slice(42, 48))]);
      const face = faces.find((f) => dist(f.landmarks.eyeMid, mid) <= (iod * s) / 2);
      if (!face || !meshes.get(face) || !face.contourEyes) {
        missed++;
        continue;
      }
      const square = jawSquareFromMesh(face.box);
      out.push({
        file: `${name}`,
        s,
        iodDet: (iod * s) / img.scale,
        scale: img.scale,
        yaw: face.yaw,
        marked,
        side: Math.max(square.w, square.h) * JAW_CROP,
        nearest: await pass(model, img, square, sampleSquare),
        bilinear: await pass(model, img, square, sampleSquareBilinear),
        contourEyes: face.contourEyes,
        meshChin: face.landmarks.chin,
        meshEyes: [face.landmarks.leftEye, face.landmarks.rightEye],
      });
    }
  }
  fs.writeFileSync(OUT, JSON.stringify(out));
  console.log(`${files.length} faces, ${out.length} samples written to ${OUT}; ${missed} (face, size) not found`);
}

if (!process.argv.includes("--analyse") && !process.argv.includes("--rules") && !process.argv.includes("--fit")) void collect();

const med = (v: number[]) => (v.length ? [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]! : NaN);
const p90 = (v: number[]) => (v.length ? [...v].sort((a, b) => a - b)[Math.floor(0.9 * (v.length - 1))]! : NaN);

/** Eye and chin error (fractions of the marked eye distance) of a sample's landmarks. */
export function errors(x: Sample, eyes: [Point, Point], chin: Point): { eye: number; chin: number } {
  const l = centroid(x.marked.slice(36, 42));
  const r = centroid(x.marked.slice(42, 48));
  const iod = dist(l, r);
  return { eye: (dist(eyes[0], l) + dist(eyes[1], r)) / 2 / iod, chin: dist(chin, x.marked[8]!) / iod };
}

export const SIZE_BINS = [[0, 18], [18, 26], [26, 40], [40, 70], [70, 1e9]] as const;

async function analyse() {
  const { correctJawPoints } = await import("@/lib/engines/ml/faces/jaw-model");
  const all = JSON.parse(fs.readFileSync(OUT!, "utf8")) as Sample[];
  const f3 = (v: number) => v.toFixed(3);
  console.log(`${all.length} samples`);
  console.log("| eye distance, detection px | n | det px per input px | chin offset, input px (nearest; bilinear) | eye offset | eye: blend / net / mesh contour | chin now | chin bilinear |\n|---|---|---|---|---|---|---|---|");
  for (const [lo, hi] of SIZE_BINS) {
    const b = all.filter((x) => x.iodDet >= lo && x.iodDet < hi);
    if (!b.length) continue;
    const off = (k: "nearest" | "bilinear", pick: (p: Point[]) => Point, m: (p: Point[]) => Point) =>
      b.map((x) => ({ x: (m(x.marked).x - pick(x[k]).x) / (x.side / JAW_INPUT), y: (m(x.marked).y - pick(x[k]).y) / (x.side / JAW_INPUT) }));
    const xy = (ps: Point[]) => `${med(ps.map((p) => p.x)).toFixed(2)}, ${med(ps.map((p) => p.y)).toFixed(2)}`;
    const chinOf = (p: Point[]) => p[8]!;
    const eyesOf = (p: Point[]) => centroid(p.slice(36, 48));
    const e = b.map((x) => {
      const net = correctJawPoints(x.nearest, x.side);
      const bil = correctJawPoints(x.bilinear, x.side);
      const ne: [Point, Point] = [centroid(net.slice(36, 42)), centroid(net.slice(42, 48))];
      const blend: [Point, Point] = [centroid([ne[0], x.contourEyes[0]]), centroid([ne[1], x.contourEyes[1]])];
      return { blend: errors(x, blend, net[8]!).eye, net: errors(x, ne, net[8]!).eye, mesh: errors(x, x.contourEyes, net[8]!).eye, chin: errors(x, ne, net[8]!).chin, chinBil: errors(x, ne, bil[8]!).chin };
    });
    console.log(`| ${lo}-${hi} | ${b.length} | ${f3(med(b.map((x) => x.side / JAW_INPUT / x.scale)))} | ${xy(off("nearest", chinOf, chinOf))}; ${xy(off("bilinear", chinOf, chinOf))} | ${xy(off("nearest", eyesOf, eyesOf))} | ${f3(med(e.map((v) => v.blend)))} / ${f3(med(e.map((v) => v.net)))} / ${f3(med(e.map((v) => v.mesh)))} | ${f3(med(e.map((v) => v.chin)))} (${f3(p90(e.map((v) => v.chin)))}) | ${f3(med(e.map((v) => v.chinBil)))} |`);
  }
}

/** Tries rules on the samples: the mesh's share in each eye, and the chin's offset, by detection pixels per input pixel (q). */
async function rules() {
  const { correctJawPoints } = await import("@/lib/engines/ml/faces/jaw-model");
  const all = JSON.parse(fs.readFileSync(OUT!, "utf8")) as Sample[];
  const q = (x: Sample) => x.side / JAW_INPUT / x.scale;
  const QBINS = [[0, 0.45], [0.45, 0.65], [0.65, 1], [1, 1.6], [1.6, 99]] as const;
  const f3 = (v: number) => v.toFixed(3);
  console.log("| q (detection px per input px) | n | eye error with the mesh's share 0 / 0.1 / 0.2 / 0.3 / 0.4 / 0.5 | chin offset x, y (input px) |");
  for (const [lo, hi] of QBINS) {
    const b = all.filter((x) => q(x) >= lo && q(x) < hi);
    const cells = [0, 0.1, 0.2, 0.3, 0.4, 0.5].map((w) =>
      f3(med(b.map((x) => {
        const net = correctJawPoints(x.nearest, x.side);
        const e = (i: number, c: Point) => { const n = centroid(net.slice(i, i + 6)); return { x: (1 - w) * n.x + w * c.x, y: (1 - w) * n.y + w * c.y }; };
        return errors(x, [e(36, x.contourEyes[0]), e(42, x.contourEyes[1])], net[8]!).eye;
      }))));
    const px = (x: Sample) => x.side / JAW_INPUT;
    const ox = med(b.map((x) => (x.marked[8]!.x - x.nearest[8]!.x) / px(x)));
    const oy = med(b.map((x) => (x.marked[8]!.y - x.nearest[8]!.y) / px(x)));
    console.log(`| ${lo}-${hi} | ${b.length} | ${cells.join(" / ")} | ${ox.toFixed(2)}, ${oy.toFixed(2)} |`);
  }
  console.log("| |yaw| | n | eye error with the mesh's share 0 / 0.2 / 0.4 / MESH_EYE_SHARE by size |");
  const { meshEyeShare } = await import("@/lib/engines/ml/faces/jaw-model");
  for (const [lo, hi] of [[0, 8], [8, 20], [20, 90]] as const) {
    const b = all.filter((x) => Math.abs(x.yaw) >= lo && Math.abs(x.yaw) < hi);
    const eye = (share: (x: Sample) => number) => f3(med(b.map((x) => {
      const w = share(x);
      const e = (i: number, c: Point) => { const n = centroid(x.nearest.slice(i, i + 6)); return { x: (1 - w) * n.x + w * c.x, y: (1 - w) * n.y + w * c.y }; };
      return errors(x, [e(36, x.contourEyes[0]), e(42, x.contourEyes[1])], x.nearest[8]!).eye;
    })));
    console.log(`| ${lo}-${hi} | ${b.length} | ${eye(() => 0)} / ${eye(() => 0.2)} / ${eye(() => 0.4)} / ${eye((x) => meshEyeShare(q(x)))} |`);
  }
}

/** The chin's correction with a size term: (cx, cy + cyq / q) input pixels, then `turn` times the nose's offset along the eye line. */
function chinWith(x: Sample, cx: number, cy: number, cyq: number, turn: number): Point {
  const pts = x.nearest;
  const px = x.side / JAW_INPUT;
  const q = px / x.scale;
  const l = centroid(pts.slice(36, 42));
  const r = centroid(pts.slice(42, 48));
  const e = { x: r.x - l.x, y: r.y - l.y };
  const nose = ((pts[30]!.x - (l.x + r.x) / 2) * e.x + (pts[30]!.y - (l.y + r.y) / 2) * e.y) / (e.x ** 2 + e.y ** 2);
  return { x: pts[8]!.x + cx * px + turn * nose * e.x, y: pts[8]!.y + (cy + cyq / q) * px + turn * nose * e.y };
}

/** Grid search on the samples (all sizes weighted alike): the chin's size term and the mesh's share in the eyes by q. */
function fit() {
  const all = JSON.parse(fs.readFileSync(OUT!, "utf8")) as Sample[];
  const chinErr = (cx: number, cy: number, cyq: number, turn: number) => med(all.map((x) => errors(x, [x.marked[36]!, x.marked[45]!], chinWith(x, cx, cy, cyq, turn)).chin));
  let best = { e: Infinity, cx: 0, cy: 0, cyq: 0, turn: 0 };
  for (const cx of [0.4, 0.5, 0.6, 0.7, 0.8]) for (const cy of [0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]) for (const cyq of [0, 0.05, 0.1, 0.15, 0.2, 0.25]) for (const turn of [0.2, 0.25, 0.3]) {
    const e = chinErr(cx, cy, cyq, turn);
    if (e < best.e) best = { e, cx, cy, cyq, turn };
  }
  console.log(`chin: the third stop's offset (0.74, 0.88, turn 0.25) ${chinErr(0.74, 0.88, 0, 0.25).toFixed(4)}; best ${JSON.stringify(best)}`);
  for (const [cx, cy] of [[0.74, 0.88], [0.65, 0.83], [0.6, 0.9], [0.5, 0.6]] as const) {
    const at = (set: Sample[]) => med(set.map((x) => errors(x, [x.marked[36]!, x.marked[45]!], chinWith(x, cx, cy, 0, 0.25)).chin)).toFixed(4);
    console.log(`  chin offset ${cx}, ${cy}: all sizes ${at(all)}, as the photos are ${at(all.filter((x) => x.s === 1))}, downscaled ${at(all.filter((x) => x.s !== 1))}`);
  }
  for (const cyq of [0, 0.1, 0.2]) console.log(`  cyq ${cyq}, best cx/cy/turn: ${chinErr(best.cx, best.cy, cyq, best.turn).toFixed(4)}`);
  const eyeErr = (share: (q: number) => number, set = all) =>
    med(set.map((x) => {
      const w = share(x.side / JAW_INPUT / x.scale);
      const e = (i: number, c: Point) => { const n = centroid(x.nearest.slice(i, i + 6)); return { x: (1 - w) * n.x + w * c.x, y: (1 - w) * n.y + w * c.y }; };
      return errors(x, [e(36, x.contourEyes[0]), e(42, x.contourEyes[1])], x.nearest[8]!).eye;
    }));
  let bestEye = { e: Infinity, q0: 0, q1: 0, top: 0 };
  for (const q0 of [0, 0.1, 0.2, 0.3, 0.4, 0.5]) for (const q1 of [0.8, 1, 1.3, 1.6, 2, 3]) for (const top of [0.3, 0.4, 0.5, 0.6]) {
    if (q1 <= q0) continue;
    const e = eyeErr((q) => top * Math.min(1, Math.max(0, (q - q0) / (q1 - q0))));
    if (e < bestEye.e) bestEye = { e, q0, q1, top };
  }
  console.log(`eyes: half the mesh everywhere ${eyeErr(() => 0.5).toFixed(4)}, the net alone ${eyeErr(() => 0).toFixed(4)}; best ${JSON.stringify(bestEye)}`);
  const rule = (q: number) => bestEye.top * Math.min(1, Math.max(0, (q - bestEye.q0) / (bestEye.q1 - bestEye.q0)));
  console.log("| eye distance, detection px | n | eye: half the mesh / the rule | chin: committed / best |\n|---|---|---|---|");
  for (const [lo, hi] of SIZE_BINS) {
    const b = all.filter((x) => x.iodDet >= lo && x.iodDet < hi);
    const c = (cx: number, cy: number) => med(b.map((x) => errors(x, [x.marked[36]!, x.marked[45]!], chinWith(x, cx, cy, 0, 0.25)).chin)).toFixed(3);
    console.log(`| ${lo}-${hi} | ${b.length} | ${eyeErr(() => 0.5, b).toFixed(3)} / ${eyeErr(rule, b).toFixed(3)} | ${c(0.74, 0.88)} / ${c(best.cx, best.cy)} |`);
  }
}

if (process.argv.includes("--analyse")) void analyse();
if (process.argv.includes("--fit")) fit();
if (process.argv.includes("--rules")) void rules();
