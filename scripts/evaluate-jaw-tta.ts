// Issue 37 (crop12): test-time augmentation and a refined square for Face Crop's jaw net (jaw-model.ts).
// On each marked face (iBUG .pts beside images; lib/engines/ml/faces/landmark-eval.ts) the face the
// engine finds (decode and Human in this thread, as the face worker does), then the net's mirrored
// pass (JAW_BIAS taken out, correctJawPoints) on the engine's square and on jittered copies of it
// (shifted and scaled), and on a square refined from the first pass's own points. Everything is
// written to FACE_JAW_TTA_OUT (JSON, outside the repository: it holds the photos' markup) so that
// `--analyse` can score every combination without running the models again.
//
//   FACE_LANDMARK_DIR=/work/eval-crop12/spinkoo/helen/trainset FACE_LANDMARK_EVERY=3 FACE_JAW_TTA_OUT=/work/eval-crop12/out/tune.json npx tsx scripts/evaluate-jaw-tta.ts
//   FACE_JAW_TTA_OUT=/work/eval-crop12/out/tune.json npx tsx scripts/evaluate-jaw-tta.ts --analyse
//   npx tsx scripts/evaluate-jaw-tta.ts --time   # CPU of each way against the engine's, fixture portraits
//
// Without FACE_LANDMARK_DIR (or FACE_JAW_TTA_OUT for --analyse) it says so and exits 0.
import fs from "node:fs";
import path from "node:path";
import { decodeUpright } from "@/lib/engines/ml/faces/decode-upright";
import { detectOnImage } from "@/lib/engines/ml/faces/detect-in-thread";
import { JAW_CROP, correctJawPoints, jawInputScale, jawPass, jawSquareFromMesh, loadJawModel, meshEyeShare } from "@/lib/engines/ml/faces/jaw-model";
import { boxOf, centroid, chinErrors, dist, eyeError, readMarkup } from "@/lib/engines/ml/faces/landmark-eval";
import type { Box, Point } from "@/lib/engines/ml/faces/types";

const DIR = process.env.FACE_LANDMARK_DIR;
const EVERY = Number(process.env.FACE_LANDMARK_EVERY ?? 1);
const OUT = process.env.FACE_JAW_TTA_OUT;

/** The squares tried, as shifts (in sides of the square the net samples) and scales of the engine's square (jawSquareFromMesh). */
export const SQUARES: Record<string, { dx: number; dy: number; s: number }> = {
  base: { dx: 0, dy: 0, s: 1 },
  xm: { dx: -0.04, dy: 0, s: 1 },
  xp: { dx: 0.04, dy: 0, s: 1 },
  ym: { dx: 0, dy: -0.04, s: 1 },
  yp: { dx: 0, dy: 0.04, s: 1 },
  s92: { dx: 0, dy: 0, s: 0.92 },
  s96: { dx: 0, dy: 0, s: 0.96 },
  s104: { dx: 0, dy: 0, s: 1.04 },
  s108: { dx: 0, dy: 0, s: 1.08 },
};

type Row = {
  file: string;
  yaw: number;
  q: number;
  marked: { leftEye: Point; rightEye: Point; chin: Point };
  meshEyes: [Point, Point] | null;
  meshChin: Point;
  /** Per square: the corrected points' eyes (contour means) and chin (8), source pixels. */
  passes: Record<string, { l: Point; r: Point; chin: Point }>;
};

const keep = (pts: Point[]) => ({ l: centroid(pts.slice(36, 42)), r: centroid(pts.slice(42, 48)), chin: pts[8]! });

async function collect() {
  if (!DIR || !fs.existsSync(DIR) || !OUT) {
    console.log(`evaluate-jaw-tta: skipped (set FACE_LANDMARK_DIR and FACE_JAW_TTA_OUT): see bench/README.md, "Face Crop landmarks"`);
    return;
  }
  const marked = readMarkup(DIR).filter((_, i) => i % EVERY === 0);
  const model = await loadJawModel();
  const rows: Row[] = [];
  let missed = 0;
  let cached = null as { file: string; img: Awaited<ReturnType<typeof decodeUpright>>; faces: Awaited<ReturnType<typeof detectOnImage>>["faces"] } | null;
  const t0 = Date.now();
  const write = (reached: number) => {
    fs.mkdirSync(path.dirname(OUT), { recursive: true });
    fs.writeFileSync(OUT, JSON.stringify({ dir: DIR, every: EVERY, marked: marked.length, reached, missed, rows }));
  };
  for (const [k, m] of marked.entries()) {
    if (cached?.file !== m.file) {
      const img = await decodeUpright(fs.readFileSync(m.file), { maxPixels: 80e6, detectLongEdge: 1024 });
      cached = { file: m.file, img, faces: (await detectOnImage(img, 0.2)).faces };
    }
    const { img, faces } = cached;
    const iod = dist(m.leftEye, m.rightEye);
    const face = faces.find((f) => dist(f.landmarks.eyeMid, centroid([m.leftEye, m.rightEye])) <= iod / 2);
    if (!face || !m.chin) {
      missed++;
      continue;
    }
    const base = jawSquareFromMesh(face.box);
    const passes: Row["passes"] = {};
    let basePts: Point[] = [];
    for (const [name, j] of Object.entries(SQUARES)) {
      const side = base.w * j.s;
      const sq = { x: base.x + base.w / 2 + j.dx * base.w * JAW_CROP - side / 2, y: base.y + base.h / 2 + j.dy * base.w * JAW_CROP - side / 2, w: side, h: side };
      const raw = await jawPass(model, img, sq, { mirrored: true });
      if (name === "base") basePts = raw;
      passes[name] = keep(correctJawPoints(raw, side * JAW_CROP));
    }
    // A second pass on the square the first pass's own (raw) points take.
    const refined = boxOf(basePts);
    const rs = Math.max(refined.w, refined.h);
    passes.refined = keep(correctJawPoints(await jawPass(model, img, refined, { mirrored: true }), rs * JAW_CROP));
    rows.push({ file: path.relative(DIR, m.file), yaw: face.yaw, q: jawInputScale(img, face.box), marked: { leftEye: m.leftEye, rightEye: m.rightEye, chin: m.chin }, meshEyes: face.contourEyes ?? null, meshChin: face.landmarks.chin, passes });
    // Written as it goes (every 10 faces), so a run cut short still scores the faces it reached.
    if (k % 10 === 0) {
      write(k + 1);
      console.log(`${k + 1} / ${marked.length} (${Math.round((Date.now() - t0) / 1000)} s)`);
    }
  }
  write(marked.length);
  console.log(`${rows.length} faces scored, ${missed} not found or without a chin; written to ${OUT}`);
}

function analyse() {
  if (!OUT || !fs.existsSync(OUT)) {
    console.log("evaluate-jaw-tta --analyse: skipped (FACE_JAW_TTA_OUT not set or missing)");
    return;
  }
  const { dir, rows } = JSON.parse(fs.readFileSync(OUT, "utf8")) as { dir: string; rows: Row[] };
  const q = (v: number[], p: number) => {
    const s = [...v].sort((a, b) => a - b);
    return p === 0.5 ? (s[Math.floor((s.length - 1) / 2)]! + s[Math.ceil((s.length - 1) / 2)]!) / 2 : s[Math.min(s.length - 1, Math.floor(p * (s.length - 1) + 0.5))]!;
  };
  const avg = (r: Row, names: string[]) => ({ l: centroid(names.map((n) => r.passes[n]!.l)), r: centroid(names.map((n) => r.passes[n]!.r)), chin: centroid(names.map((n) => r.passes[n]!.chin)) });
  const blend = (net: { l: Point; r: Point }, r: Row, share: number): [Point, Point] => {
    if (!r.meshEyes) return [net.l, net.r];
    const w = share;
    const mix = (a: Point, b: Point) => ({ x: (1 - w) * a.x + w * b.x, y: (1 - w) * a.y + w * b.y });
    return [mix(net.l, r.meshEyes[0]), mix(net.r, r.meshEyes[1])];
  };
  type Way = { eyes: string[]; chin: string[]; share?: (r: Row) => number };
  const all = Object.keys(SQUARES);
  const ways: Record<string, Way> = {
    engine: { eyes: ["base"], chin: ["base"] },
    refined: { eyes: ["refined"], chin: ["refined"] },
    "base+refined": { eyes: ["base", "refined"], chin: ["base", "refined"] },
    "shifts x (3)": { eyes: ["base", "xm", "xp"], chin: ["base", "xm", "xp"] },
    "shifts y (3)": { eyes: ["base", "ym", "yp"], chin: ["base", "ym", "yp"] },
    "shifts (5)": { eyes: ["base", "xm", "xp", "ym", "yp"], chin: ["base", "xm", "xp", "ym", "yp"] },
    "scales 0.96/1.04 (3)": { eyes: ["base", "s96", "s104"], chin: ["base", "s96", "s104"] },
    "scales 0.92/1.08 (3)": { eyes: ["base", "s92", "s108"], chin: ["base", "s92", "s108"] },
    "scales (5)": { eyes: ["base", "s92", "s96", "s104", "s108"], chin: ["base", "s92", "s96", "s104", "s108"] },
    "all 9": { eyes: all, chin: all },
    "all 9 + refined": { eyes: [...all, "refined"], chin: [...all, "refined"] },
    "s96+s104 (2)": { eyes: ["s96", "s104"], chin: ["s96", "s104"] },
    "xm+xp (2)": { eyes: ["xm", "xp"], chin: ["xm", "xp"] },
  };
  console.log(`${dir}: ${rows.length} faces`);
  console.log("| way | passes | eye median / p90 (engine's mesh share) | eye, net alone | chin median / p90 | chin along median |\n|---|---|---|---|---|---|");
  for (const [name, w] of Object.entries(ways)) {
    const eyes: number[] = [];
    const eyesNet: number[] = [];
    const chins: number[] = [];
    const along: number[] = [];
    for (const r of rows) {
      const e = avg(r, w.eyes);
      const c = avg(r, w.chin);
      const m = { ...r.marked, file: r.file, crown: null };
      const [l, rr] = blend(e, r, meshEyeShare(r.q));
      eyes.push(eyeError(l, rr, m));
      eyesNet.push(eyeError(e.l, e.r, m));
      const ce = chinErrors(c.chin, m, r.marked.chin);
      chins.push(ce.chin);
      along.push(ce.chinAlong);
    }
    const passes = new Set([...w.eyes, ...w.chin]).size;
    console.log(`| ${name} | ${passes} | ${q(eyes, 0.5).toFixed(4)} / ${q(eyes, 0.9).toFixed(3)} | ${q(eyesNet, 0.5).toFixed(4)} / ${q(eyesNet, 0.9).toFixed(3)} | ${q(chins, 0.5).toFixed(4)} / ${q(chins, 0.9).toFixed(3)} | ${q(along, 0.5).toFixed(4)} |`);
  }
  // The mesh's share in the eyes, scaled (1: MESH_EYE_SHARE as committed), on the engine's pass.
  const line: string[] = [];
  for (const k of [0, 0.5, 1, 1.25, 1.5, 2]) {
    const e = rows.map((r) => {
      const [l, rr] = blend(r.passes.base!, r, Math.min(0.8, k * meshEyeShare(r.q)));
      return eyeError(l, rr, { ...r.marked, file: r.file, crown: null });
    });
    line.push(`×${k} ${q(e, 0.5).toFixed(4)}`);
  }
  console.log(`mesh share in the eyes (engine's pass): ${line.join(", ")}`);
  // The share's rule (meshEyeShare: top × q / fullAt, at most top) over a grid, eyes of EYES_FROM's passes.
  const from = (process.env.FACE_JAW_TTA_EYES ?? "base").split(",");
  const grid: string[] = [];
  for (const top of [0.4, 0.5, 0.6, 0.7]) {
    for (const fullAt of [1.6, 2.4, 3.2]) {
      const e = rows.map((r) => {
        const [l, rr] = blend(avg(r, from), r, top * Math.min(1, Math.max(0, r.q / fullAt)));
        return eyeError(l, rr, { ...r.marked, file: r.file, crown: null });
      });
      grid.push(`${top}/${fullAt} ${q(e, 0.5).toFixed(4)} (p90 ${q(e, 0.9).toFixed(3)})`);
    }
  }
  console.log(`share top/fullAt, eyes of ${from.join("+")}: ${grid.join(", ")}`);
  console.log(`q: median ${q(rows.map((r) => r.q), 0.5).toFixed(2)}, 10 % ${q(rows.map((r) => r.q), 0.1).toFixed(2)}; |yaw| median ${q(rows.map((r) => Math.abs(r.yaw)), 0.5).toFixed(1)}°`);
}

/**
 * `--time`: the CPU each way costs in this thread, on the fixture portraits (test/fixtures/faces, as
 * face-crop-bench.ts's crown bench takes them, at their own size): detection once per photo, then the
 * engine's jaw step (one mirrored pass) and each set of squares (TTA_TIME_WAYS), alternated
 * FACE_JAW_TTA_ROUNDS times; per photo, (detection + way) / (detection + engine), the crown step left
 * out of both (so the ratio overstates what a whole Face Crop call sees).
 */
async function time() {
  const dir = "test/fixtures/faces";
  const names = ["obama.jpg", "obama2.jpg", "biden.jpg", "two_people.jpg", "obama-1080p.jpg", "obama_and_biden.jpg", "obama3.jpg", "biden2.jpg"];
  const rounds = Number(process.env.FACE_JAW_TTA_ROUNDS ?? 20);
  const model = await loadJawModel();
  const cpu = async (fn: () => Promise<unknown>) => {
    const c0 = process.cpuUsage();
    await fn();
    const c = process.cpuUsage(c0);
    return (c.user + c.system) / 1000;
  };
  const ways: Record<string, string[]> = { engine: ["base"], "base+refined": ["base", "refined"], "shifts x (3)": ["base", "xm", "xp"], "shifts (5)": ["base", "xm", "xp", "ym", "yp"], "scales 0.96/1.04 (3)": ["base", "s96", "s104"], "all 9": Object.keys(SQUARES) };
  const run = async (img: Awaited<ReturnType<typeof decodeUpright>>, box: Box, names: string[]) => {
    const base = jawSquareFromMesh(box);
    let first: Point[] = [];
    for (const name of names) {
      if (name === "refined") {
        const b = boxOf(first);
        correctJawPoints(await jawPass(model, img, b, { mirrored: true }), Math.max(b.w, b.h) * JAW_CROP);
        continue;
      }
      const j = SQUARES[name]!;
      const side = base.w * j.s;
      const sq = { x: base.x + base.w / 2 + j.dx * base.w * JAW_CROP - side / 2, y: base.y + base.h / 2 + j.dy * base.w * JAW_CROP - side / 2, w: side, h: side };
      const raw = await jawPass(model, img, sq, { mirrored: true });
      if (name === "base") first = raw;
      correctJawPoints(raw, side * JAW_CROP);
    }
  };
  const rows: string[] = [];
  const ratio: Record<string, number[]> = {};
  const detectAll: number[] = [];
  const wayAll: Record<string, number[]> = {};
  for (const name of names) {
    const bytes = fs.readFileSync(path.join(dir, name));
    let img = await decodeUpright(bytes, { maxPixels: 80e6, detectLongEdge: 1024 });
    let faces = (await detectOnImage(img, 0.2)).faces;
    const det: number[] = [];
    for (let r = 0; r < 3; r++) {
      det.push(await cpu(async () => {
        img = await decodeUpright(bytes, { maxPixels: 80e6, detectLongEdge: 1024 });
        faces = (await detectOnImage(img, 0.2)).faces;
      }));
    }
    if (!faces[0]) continue;
    const per: Record<string, number[]> = {};
    for (let r = 0; r < rounds; r++) {
      const order = Object.keys(ways);
      for (let i = 0; i < order.length; i++) {
        const w = order[(i + r) % order.length]!;
        (per[w] ??= []).push(await cpu(() => run(img, faces[0]!.box, ways[w]!)));
      }
    }
    const med = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
    const d = med(det);
    detectAll.push(d);
    rows.push(`${name}: decode+detect ${d.toFixed(0)} ms CPU; ${Object.entries(per).map(([w, v]) => `${w} ${med(v).toFixed(1)}`).join(", ")} ms`);
    for (const [w, v] of Object.entries(per)) {
      (ratio[w] ??= []).push((d + med(v)) / (d + med(per.engine!)));
      (wayAll[w] ??= []).push(med(v));
    }
  }
  console.log(rows.join("\n"));
  const med = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
  for (const [w, v] of Object.entries(ratio)) console.log(`${w}: jaw step ${med(wayAll[w]!).toFixed(1)} ms CPU (median of photos); (decode + detect + jaw) against the engine's, median of photos ${med(v).toFixed(3)}x`);
}

void (process.argv.includes("--analyse") ? Promise.resolve(analyse()) : process.argv.includes("--time") ? time() : collect());
