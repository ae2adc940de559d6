// Issue 37 (crop15): the jaw net's square cut from the photo's own pixels (jawPassFromSource below)
// against the engine's, sampled from the 1024 px detection copy (jawPass). On each marked face (iBUG .pts
// beside images; lib/engines/ml/faces/landmark-eval.ts) the face the engine finds (decode and Human in
// this thread, as the face worker does), then the net's mirrored pass (correctJawPoints) on the engine's
// square from the copy and from the photo. Rows go to FACE_JAW_SOURCE_OUT (JSON, outside the repository:
// it holds the photos' markup); `--analyse` scores thresholds on q and the mesh's share without the models.
//
// FACE_JAW_SOURCE_EMBED=3: each photo is first put, at its own resolution, in the middle of a grey canvas
// of 3 times its sides (JPEG q 95, 4:4:4, in memory), so that the 1024 px copy holds its faces small while
// the photo keeps their pixels (AFW's situation, made from another set).
//
//   FACE_LANDMARK_DIR=<helen/trainset> FACE_LANDMARK_EVERY=6 FACE_JAW_SOURCE_EMBED=3 FACE_JAW_SOURCE_OUT=<out/tune-embed.json> npx tsx scripts/evaluate-jaw-source.ts
//   FACE_JAW_SOURCE_OUT=<a.json>,<b.json> npx tsx scripts/evaluate-jaw-source.ts --analyse
//   FACE_JAW_SOURCE_TIME=<dir of photos> npx tsx scripts/evaluate-jaw-source.ts --time
//
// Without FACE_LANDMARK_DIR (or FACE_JAW_SOURCE_OUT for --analyse) it says so and exits 0.
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { decodeUpright } from "@/lib/engines/ml/faces/decode-upright";
import { detectOnImage } from "@/lib/engines/ml/faces/detect-in-thread";
import { openImage } from "@/lib/engines/imaging/image-input";
import { JAW_CROP, JAW_INPUT, correctJawPoints, jawInputScale, jawPass, jawSquareFromMesh, loadJawModel, meshEyeShare, type JawModel } from "@/lib/engines/ml/faces/jaw-model";
import { sampleSquare } from "@/lib/engines/ml/faces/sample-square";
import { centroid, chinErrors, dist, eyeError, readMarkup } from "@/lib/engines/ml/faces/landmark-eval";
import type { Box, Point } from "@/lib/engines/ml/faces/types";

const DIR = process.env.FACE_LANDMARK_DIR;
const EVERY = Number(process.env.FACE_LANDMARK_EVERY ?? 1);
const EMBED = Number(process.env.FACE_JAW_SOURCE_EMBED ?? 0);
const OUT = process.env.FACE_JAW_SOURCE_OUT;
const MAX_PIXELS = 200e6;

/** The photo's pixels per net pixel the cut is shrunk to, at most. */
export const JAW_SOURCE_Q = 2;

/**
 * One pass as jawPass, but on the square cut from the upright photo at its own resolution (sharp:
 * rotate, extract the square's part inside the photo, shrink to at most JAW_SOURCE_Q photo pixels a
 * net pixel), so a face the detection copy holds small keeps the detail the photo has. `bytes` is the
 * file the detection copy was decoded from (`maxPixels` as there). The square's part outside the photo
 * is grey, as sampleSquare makes it. Answers the points in source pixels.
 */
export async function jawPassFromSource(model: JawModel, bytes: Buffer | Uint8Array, maxPixels: number, img: { width: number; height: number }, box: Box, opts: { mirrored?: boolean } = {}): Promise<Point[]> {
  const side = Math.max(box.w, box.h) * JAW_CROP;
  const left = box.x + box.w / 2 - side / 2;
  const top = box.y + box.h / 2 - side / 2;
  const x0 = Math.max(0, Math.floor(left));
  const y0 = Math.max(0, Math.floor(top));
  const x1 = Math.min(img.width, Math.ceil(left + side));
  const y1 = Math.min(img.height, Math.ceil(top + side));
  if (!(x1 > x0 && y1 > y0)) throw new Error("The jaw net's square lies outside the photo.");
  const k = Math.max(1, side / JAW_INPUT / JAW_SOURCE_Q); // photo pixels per pixel of the cut
  const outW = Math.max(1, Math.round((x1 - x0) / k));
  const outH = Math.max(1, Math.round((y1 - y0) / k));
  const { data } = await openImage(bytes, maxPixels)
    .rotate()
    .extract({ left: x0, top: y0, width: x1 - x0, height: y1 - y0 })
    .resize(outW, outH, { fit: "fill" })
    .removeAlpha()
    .toColourspace("srgb")
    .raw()
    .toBuffer({ resolveWithObject: true });
  const s = (x1 - x0) / outW; // photo pixels per pixel of the cut (rows differ from it by under half a pixel of the cut)
  const l = (left - x0) / s;
  const t = (top - y0) / s;
  const n = side / s;
  const unit = await model.run(sampleSquare({ rgb: data, rgbWidth: outW, rgbHeight: outH }, l, t, n, JAW_INPUT, 1 / 4), opts);
  return unit.map((q) => ({ x: x0 + (l + q.x * n) * s, y: y0 + (t + q.y * n) * s }));
}

type Pass = { l: Point; r: Point; chin: Point };
type Row = {
  file: string;
  /** Detection pixels per net pixel on the copy (jawInputScale), and source pixels per detection pixel. */
  q: number;
  scale: number;
  yaw: number;
  marked: { leftEye: Point; rightEye: Point; chin: Point };
  meshEyes: [Point, Point] | null;
  copy: Pass;
  source: Pass;
};

const keep = (pts: Point[]): Pass => ({ l: centroid(pts.slice(36, 42)), r: centroid(pts.slice(42, 48)), chin: pts[8]! });

/** The photo as the script feeds it: as is, or in the middle of a grey canvas EMBED times its sides (its markup moved with it). */
async function photo(file: string): Promise<{ bytes: Buffer; dx: number; dy: number }> {
  const bytes = fs.readFileSync(file);
  if (!(EMBED > 1)) return { bytes, dx: 0, dy: 0 };
  const meta = await sharp(bytes).metadata();
  const dx = Math.round((meta.width! * (EMBED - 1)) / 2);
  const dy = Math.round((meta.height! * (EMBED - 1)) / 2);
  const out = await sharp(bytes, { limitInputPixels: false })
    .removeAlpha()
    .extend({ left: dx, right: dx, top: dy, bottom: dy, background: { r: 128, g: 128, b: 128 } })
    .jpeg({ quality: 95, chromaSubsampling: "4:4:4" })
    .toBuffer();
  return { bytes: out, dx, dy };
}

async function collect() {
  if (!DIR || !fs.existsSync(DIR) || !OUT) {
    console.log(`evaluate-jaw-source: skipped (set FACE_LANDMARK_DIR and FACE_JAW_SOURCE_OUT): see bench/README.md, "the jaw net's square from the photo's own pixels"`);
    return;
  }
  const marked = readMarkup(DIR).filter((_, i) => i % EVERY === 0);
  const model = await loadJawModel();
  const rows: Row[] = [];
  let missed = 0;
  let cached = null as { file: string; bytes: Buffer; dx: number; dy: number; img: Awaited<ReturnType<typeof decodeUpright>>; faces: Awaited<ReturnType<typeof detectOnImage>>["faces"] } | null;
  const t0 = Date.now();
  const write = (reached: number) => {
    fs.mkdirSync(path.dirname(OUT), { recursive: true });
    fs.writeFileSync(OUT, JSON.stringify({ dir: DIR, every: EVERY, embed: EMBED, marked: marked.length, reached, missed, rows }));
  };
  const ms = { copy: 0, source: 0 };
  for (const [k, m0] of marked.entries()) {
    if (cached?.file !== m0.file) {
      const p = await photo(m0.file);
      const img = await decodeUpright(p.bytes, { maxPixels: MAX_PIXELS, detectLongEdge: 1024 });
      cached = { file: m0.file, ...p, img, faces: (await detectOnImage(img, 0.2)).faces };
    }
    const { img, faces, bytes, dx, dy } = cached;
    const mv = (q: Point) => ({ x: q.x + dx, y: q.y + dy });
    const m = { leftEye: mv(m0.leftEye), rightEye: mv(m0.rightEye), chin: m0.chin ? mv(m0.chin) : null };
    const iod = dist(m.leftEye, m.rightEye);
    const face = faces.find((f) => dist(f.landmarks.eyeMid, centroid([m.leftEye, m.rightEye])) <= iod / 2);
    if (!face || !m.chin) {
      missed++;
      continue;
    }
    const square = jawSquareFromMesh(face.box);
    const side = Math.max(square.w, square.h) * JAW_CROP;
    const a = performance.now();
    const copy = keep(correctJawPoints(await jawPass(model, img, square, { mirrored: true }), side));
    const b = performance.now();
    const source = keep(correctJawPoints(await jawPassFromSource(model, bytes, MAX_PIXELS, img, square, { mirrored: true }), side));
    ms.copy += b - a;
    ms.source += performance.now() - b;
    rows.push({ file: path.relative(DIR, m0.file), q: jawInputScale(img, face.box), scale: img.scale, yaw: face.yaw, marked: { leftEye: m.leftEye, rightEye: m.rightEye, chin: m.chin }, meshEyes: face.contourEyes ?? null, copy, source });
    if (k % 10 === 0) {
      write(k + 1);
      console.log(`${k + 1} / ${marked.length} (${Math.round((Date.now() - t0) / 1000)} s)`);
    }
  }
  write(marked.length);
  console.log(`${rows.length} faces scored, ${missed} not found or without a chin; jaw pass ${(ms.copy / rows.length).toFixed(1)} ms from the copy, ${(ms.source / rows.length).toFixed(1)} ms from the photo (wall, mean); written to ${OUT}`);
}

const quantile = (v: number[], p: number) => {
  const s = [...v].sort((a, b) => a - b);
  if (!s.length) return NaN;
  return p === 0.5 ? (s[Math.floor((s.length - 1) / 2)]! + s[Math.ceil((s.length - 1) / 2)]!) / 2 : s[Math.min(s.length - 1, Math.floor(p * (s.length - 1) + 0.5))]!;
};

/** A way: the square from the photo where q < `below` (and the photo is larger than the copy); the mesh's share in the eyes meshEyeShare(q) × `share` there (1 elsewhere). */
export type Way = { below: number; share: number };

export function score(rows: Row[], way: Way) {
  const eyes: number[] = [];
  const chins: number[] = [];
  let used = 0;
  for (const r of rows) {
    const src = r.q < way.below && r.scale > 1;
    if (src) used++;
    const p = src ? r.source : r.copy;
    const w = meshEyeShare(r.q) * (src ? way.share : 1);
    const mix = (a: Point, b: Point) => ({ x: (1 - w) * a.x + w * b.x, y: (1 - w) * a.y + w * b.y });
    const [l, rr] = r.meshEyes ? [mix(p.l, r.meshEyes[0]), mix(p.r, r.meshEyes[1])] : [p.l, p.r];
    const m = { ...r.marked, file: r.file, crown: null };
    eyes.push(eyeError(l, rr, m));
    chins.push(chinErrors(p.chin, m, r.marked.chin).chin);
  }
  return { n: rows.length, used, eye: quantile(eyes, 0.5), eye90: quantile(eyes, 0.9), chin: quantile(chins, 0.5), chin90: quantile(chins, 0.9) };
}

function analyse() {
  const files = (OUT ?? "").split(",").filter((f) => f && fs.existsSync(f));
  if (!files.length) {
    console.log("evaluate-jaw-source --analyse: skipped (FACE_JAW_SOURCE_OUT not set or missing)");
    return;
  }
  const sets = files.map((f) => ({ f, ...(JSON.parse(fs.readFileSync(f, "utf8")) as { dir: string; embed: number; rows: Row[] }) }));
  const fmt = (s: ReturnType<typeof score>) => `${s.eye.toFixed(4)} / ${s.eye90.toFixed(3)} | ${s.chin.toFixed(4)} / ${s.chin90.toFixed(3)} | ${s.used}`;
  const ways: [string, Way][] = [["engine (copy)", { below: 0, share: 1 }]];
  for (const below of [1, 1.5, 2, 2.5, 3, Infinity]) for (const share of [1, 0.5, 0]) ways.push([`photo where q < ${below}, mesh share ×${share}`, { below, share }]);
  for (const s of sets) {
    const qs = s.rows.map((r) => r.q);
    console.log(`\n${path.basename(s.f)} (${s.dir}, embed ${s.embed || "none"}): ${s.rows.length} faces; q median ${quantile(qs, 0.5).toFixed(2)}, 10 % ${quantile(qs, 0.1).toFixed(2)}; photo px per detection px median ${quantile(s.rows.map((r) => r.scale), 0.5).toFixed(2)}`);
    console.log("| way | eye median / p90 | chin median / p90 | faces on the photo's square |\n|---|---|---|---|");
    for (const [name, w] of ways) console.log(`| ${name} | ${fmt(score(s.rows, w))} |`);
    // By q: the copy's and the photo's squares, net's eyes (share as the engine's) and chin.
    const bins: [number, number][] = [[0, 0.8], [0.8, 1.2], [1.2, 1.6], [1.6, 2.4], [2.4, 99]];
    console.log("| q | faces | eye copy → photo | chin copy → photo |\n|---|---|---|---|");
    for (const [lo, hi] of bins) {
      const rs = s.rows.filter((r) => r.q >= lo && r.q < hi && r.scale > 1);
      if (!rs.length) continue;
      const c = score(rs, { below: 0, share: 1 });
      const p = score(rs, { below: Infinity, share: 1 });
      console.log(`| ${lo}-${hi} | ${rs.length} | ${c.eye.toFixed(4)} → ${p.eye.toFixed(4)} | ${c.chin.toFixed(4)} → ${p.chin.toFixed(4)} |`);
    }
  }
}

/**
 * `--time`: the jaw step's wall time in this thread from the copy and from the photo, alternated, on
 * FACE_JAW_SOURCE_TIME's photos (each decoded and detected once; the first face), FACE_JAW_SOURCE_ROUNDS rounds.
 */
async function time() {
  const dir = process.env.FACE_JAW_SOURCE_TIME;
  if (!dir || !fs.existsSync(dir)) {
    console.log("evaluate-jaw-source --time: skipped (set FACE_JAW_SOURCE_TIME to a folder of photos)");
    return;
  }
  const rounds = Number(process.env.FACE_JAW_SOURCE_ROUNDS ?? 5);
  // FACE_JAW_SOURCE_ONLY=copy|source: one way alone, for the process's peak RSS of that way.
  const env = process.env.FACE_JAW_SOURCE_ONLY;
  const only: "copy" | "source" | null = env === "copy" || env === "source" ? env : null;
  const model = await loadJawModel();
  const names = fs.readdirSync(dir).filter((n) => /\.(jpe?g|png)$/i.test(n)).sort();
  const med = (v: number[]) => quantile(v, 0.5);
  const all = { decodeDetect: [] as number[], copy: [] as number[], source: [] as number[] };
  for (const name of names) {
    const bytes = fs.readFileSync(path.join(dir, name));
    const d0 = performance.now();
    const img = await decodeUpright(bytes, { maxPixels: MAX_PIXELS, detectLongEdge: 1024 });
    const face = (await detectOnImage(img, 0.2)).faces[0];
    const dd = performance.now() - d0;
    if (!face) continue;
    const sq = jawSquareFromMesh(face.box);
    const per = { copy: [] as number[], source: [] as number[] };
    for (let r = 0; r < rounds; r++) {
      for (const w of only ? [only] : r % 2 ? (["source", "copy"] as const) : (["copy", "source"] as const)) {
        const t = performance.now();
        if (w === "copy") await jawPass(model, img, sq, { mirrored: true });
        else await jawPassFromSource(model, bytes, MAX_PIXELS, img, sq, { mirrored: true });
        per[w].push(performance.now() - t);
      }
    }
    all.decodeDetect.push(dd);
    all.copy.push(med(per.copy));
    all.source.push(med(per.source));
    console.log(`${name}: ${img.width} × ${img.height}, q ${jawInputScale(img, face.box).toFixed(2)}; decode + detect ${dd.toFixed(0)} ms; jaw pass from the copy ${med(per.copy).toFixed(1)} ms, from the photo ${med(per.source).toFixed(1)} ms`);
  }
  const sum = (v: number[]) => v.reduce((s, x) => s + x, 0);
  console.log(`${all.copy.length} photos: jaw pass median ${med(all.copy).toFixed(1)} → ${med(all.source).toFixed(1)} ms; (decode + detect + jaw) summed ${((sum(all.decodeDetect) + sum(all.source)) / (sum(all.decodeDetect) + sum(all.copy))).toFixed(3)}x; rss ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB, peak ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB${only ? ` (${only} only)` : ""}`);
}

void (process.argv.includes("--analyse") ? Promise.resolve(analyse()) : process.argv.includes("--time") ? time() : collect());
