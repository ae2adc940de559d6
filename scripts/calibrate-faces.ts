// Calibrates face matching: embeds labelled faces, builds genuine (same person)
// and impostor (different people) pairs, and prints the raw-distance
// distributions, ROC AUC, the false match rate and miss rate at similarity 0.70,
// 0.85 and 0.95 under the mapping in lib/ml/faces/matching.ts, and the
// distance quantiles the mapping's anchors were chosen from.
//
//   npm run calibrate:faces            (CALIBRATE_JSON=path also writes the pairs' figures)
//
// Photos (nothing is downloaded; see lib/ml/faces/README.md, "Calibration"):
// - test/fixtures/faces: Obama ×7 photos, Biden ×4 (two of them group photos),
//   labelled by hand (left to right in the group photos);
// - lib/ml/faces/demo-photos: the demo set, labelled in its manifest.json;
// - group photos that ship inside installed packages, read where npm put them and
//   never copied into the repository (their photos' licence is not stated):
//   @vladmandic/face-api/demo/sample{1..6}.jpg and the group photo in
//   @vladmandic/human/assets/samples.jpg; every face in them is its own person.
// - Augmented views: every face also cut out again, turned ±12°, shrunk to a
//   ~70 px face, darkened or brightened and saved as a JPEG at quality 60, then
//   embedded from that new file: a genuine pair with its original that exercises
//   alignment, scale and compression (easier than a different photo of the person).
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import sharp from "sharp";
import { describeFaces, shutDownFaces, faceDistance, similarityOfDistance, DISTANCE_TO_SIMILARITY, type DescribedFace } from "@/lib/ml/faces";

type Face = { identity: string; source: string; view: "original" | "augmented"; embedding: Float32Array };
type Photo = { source: string; bytes: Buffer; identities: (string | null)[] | "each"; cropTopShare?: number };

const ROOT = process.cwd();
const req = createRequire(path.join(ROOT, "package.json"));
// Both packages keep their main file in dist/.
const pkgDir = (name: string) => path.dirname(path.dirname(req.resolve(name)));

function photos(): Photo[] {
  const fx = (f: string) => fs.readFileSync(path.join(ROOT, "test/fixtures/faces", f));
  const list: Photo[] = [
    ...["obama.jpg", "obama2.jpg", "obama3.jpg", "obama-1080p.jpg", "obama_partial_face.jpg"].map((f) => ({ source: f, bytes: fx(f), identities: ["obama"] })),
    ...["biden.jpg", "biden2.jpg"].map((f) => ({ source: f, bytes: fx(f), identities: ["biden"] })),
    // Left to right: Biden, Obama, the girl in front (when detected).
    { source: "obama_and_biden.jpg", bytes: fx("obama_and_biden.jpg"), identities: ["biden", "obama", "obama_and_biden-girl"] },
    { source: "two_people.jpg", bytes: fx("two_people.jpg"), identities: ["obama", "biden"] },
  ];
  const demoDir = path.join(ROOT, "lib/ml/faces/demo-photos");
  const manifest = path.join(demoDir, "manifest.json");
  if (fs.existsSync(manifest)) {
    const m = JSON.parse(fs.readFileSync(manifest, "utf8")) as { photos: { file: string; people: string[] }[] };
    for (const p of m.photos) list.push({ source: `demo-photos/${p.file}`, bytes: fs.readFileSync(path.join(demoDir, p.file)), identities: p.people.map((x) => `demo-${x}`) });
  }
  const faceApiDemo = path.join(pkgDir("@vladmandic/face-api"), "demo");
  for (let i = 1; i <= 6; i++) {
    const f = path.join(faceApiDemo, `sample${i}.jpg`);
    if (fs.existsSync(f)) list.push({ source: `face-api/sample${i}.jpg`, bytes: fs.readFileSync(f), identities: "each" });
  }
  const humanSamples = path.join(pkgDir("@vladmandic/human"), "assets/samples.jpg");
  // Its top strip repeats people as thumbnails: only the large group photo below it.
  if (fs.existsSync(humanSamples)) list.push({ source: "human/samples.jpg", bytes: fs.readFileSync(humanSamples), identities: "each", cropTopShare: 0.19 });
  return list;
}

/** Labels faces left to right (by box centre) for hand-labelled photos; every face its own person in "each" photos. */
function label(photo: Photo, faces: DescribedFace[]): { face: DescribedFace; identity: string }[] {
  const byX = [...faces].sort((a, b) => a.box.x + a.box.w / 2 - (b.box.x + b.box.w / 2));
  if (photo.identities === "each") return byX.map((face, i) => ({ face, identity: `${photo.source}#${i}` }));
  const ids = photo.identities;
  if (byX.length < ids.filter(Boolean).length - (ids.length > 2 ? 1 : 0)) throw new Error(`${photo.source}: found ${byX.length} faces, labelled ${ids.length}`);
  if (byX.length > ids.length) throw new Error(`${photo.source}: found ${byX.length} faces, labelled ${ids.length}: label them`);
  // With the optional third face (the girl) missing, the first two labels still hold left to right.
  return byX.map((face, i) => ({ face, identity: ids[i]! })).filter((x): x is { face: DescribedFace; identity: string } => x.identity !== null);
}

/** A second view of one face: cut out with room around it, turned, shrunk, re-lit, re-compressed. */
async function augmentedView(bytes: Buffer, face: DescribedFace, i: number): Promise<Buffer> {
  const meta = await sharp(bytes).rotate().metadata();
  const swap = (meta.orientation ?? 1) >= 5;
  const W = swap ? meta.height! : meta.width!, H = swap ? meta.width! : meta.height!;
  const cx = face.box.x + face.box.w / 2, cy = face.box.y + face.box.h / 2;
  const half = Math.max(face.box.w, face.box.h) * 1.3;
  const left = Math.max(0, Math.round(cx - half)), top = Math.max(0, Math.round(cy - half));
  const width = Math.min(W - left, Math.round(2 * half)), height = Math.min(H - top, Math.round(2 * half));
  const k = 200 / Math.max(width, height); // the face becomes ~70-80 px tall
  return sharp(bytes)
    .rotate()
    .extract({ left, top, width, height })
    .resize(Math.round(width * k), Math.round(height * k))
    .rotate(i % 2 ? 12 : -12, { background: "#808080" })
    .modulate({ brightness: i % 2 ? 0.75 : 1.25 })
    .jpeg({ quality: 60 })
    .toBuffer();
}

async function embedAll(): Promise<Face[]> {
  const faces: Face[] = [];
  for (const photo of photos()) {
    let bytes = photo.bytes;
    if (photo.cropTopShare) {
      const m = await sharp(bytes).metadata();
      const top = Math.round(m.height! * photo.cropTopShare);
      bytes = await sharp(bytes).extract({ left: 0, top, width: m.width!, height: m.height! - top }).jpeg({ quality: 95 }).toBuffer();
    }
    const d = await describeFaces(bytes);
    const labelled = label(photo, d.faces);
    console.error(`${photo.source}: ${labelled.length} faces`);
    let i = 0;
    for (const { face, identity } of labelled) {
      faces.push({ identity, source: photo.source, view: "original", embedding: face.embedding });
      const view = await augmentedView(bytes, face, i++);
      const again = await describeFaces(view);
      // The face nearest the view's centre is the one it was cut around.
      const vm = await sharp(view).metadata();
      const nearest = again.faces.sort((a, b) => dist2(a, vm) - dist2(b, vm))[0];
      if (nearest) faces.push({ identity, source: `${photo.source} (augmented)`, view: "augmented", embedding: nearest.embedding });
    }
  }
  return faces;
}
const dist2 = (f: DescribedFace, m: sharp.Metadata) => (f.box.x + f.box.w / 2 - m.width! / 2) ** 2 + (f.box.y + f.box.h / 2 - m.height! / 2) ** 2;

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))));
  return sorted[i]!;
}

/** Probability that a random genuine pair is closer than a random impostor pair (ties count half). */
function rocAuc(genuine: number[], impostor: number[]): number {
  const all = [...genuine.map((d) => [d, 1] as const), ...impostor.map((d) => [d, 0] as const)].sort((a, b) => a[0] - b[0]);
  let rankSum = 0;
  for (let i = 0; i < all.length; ) {
    let j = i;
    while (j < all.length && all[j]![0] === all[i]![0]) j++;
    const avgRank = (i + 1 + j) / 2;
    for (let t = i; t < j; t++) if (all[t]![1] === 1) rankSum += avgRank;
    i = j;
  }
  // Genuine pairs should have the small distances: AUC = P(genuine distance < impostor distance).
  const n1 = genuine.length, n0 = impostor.length;
  return 1 - (rankSum - (n1 * (n1 + 1)) / 2) / (n1 * n0);
}

async function main() {
  const t0 = performance.now();
  const faces = await embedAll();
  await shutDownFaces();
  const genuineReal: number[] = [], genuineAug: number[] = [], impostor: number[] = [];
  for (let a = 0; a < faces.length; a++) {
    for (let b = a + 1; b < faces.length; b++) {
      const fa = faces[a]!, fb = faces[b]!;
      const d = faceDistance(fa.embedding, fb.embedding);
      if (fa.identity !== fb.identity) impostor.push(d);
      else if (fa.view === "original" && fb.view === "original") genuineReal.push(d);
      else genuineAug.push(d);
    }
  }
  const genuine = [...genuineReal, ...genuineAug].sort((x, y) => x - y);
  impostor.sort((x, y) => x - y);
  const identities = new Set(faces.map((f) => f.identity)).size;
  const q = (arr: number[], p: number) => quantile([...arr].sort((x, y) => x - y), p).toFixed(3);
  console.log(`faces ${faces.length} (${faces.filter((f) => f.view === "original").length} originals), identities ${identities}, ${Math.round((performance.now() - t0) / 1000)} s`);
  console.log(`genuine pairs: ${genuineReal.length} different photos + ${genuineAug.length} augmented views; impostor pairs: ${impostor.length}`);
  console.log(`genuine distance (different photos): min ${q(genuineReal, 0)} median ${q(genuineReal, 0.5)} max ${q(genuineReal, 1)}`);
  console.log(`genuine distance (augmented):        min ${q(genuineAug, 0)} median ${q(genuineAug, 0.5)} p95 ${q(genuineAug, 0.95)} max ${q(genuineAug, 1)}`);
  console.log(`impostor distance: min ${q(impostor, 0)} p0.1% ${q(impostor, 0.001)} p1% ${q(impostor, 0.01)} p5% ${q(impostor, 0.05)} median ${q(impostor, 0.5)}`);
  console.log(`ROC AUC ${rocAuc(genuine, impostor).toFixed(5)}`);
  const rows = [0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 0.99].map((t) => {
    const fm = impostor.filter((d) => similarityOfDistance(d) >= t).length;
    const missReal = genuineReal.filter((d) => similarityOfDistance(d) < t).length;
    const missAll = genuine.filter((d) => similarityOfDistance(d) < t).length;
    return {
      threshold: t,
      "false matches": `${fm}/${impostor.length}`,
      FMR: +(fm / impostor.length).toFixed(5),
      "miss (photos)": `${missReal}/${genuineReal.length}`,
      "miss rate (all genuine)": +(missAll / genuine.length).toFixed(4),
    };
  });
  console.table(rows);
  console.log("mapping (distance -> similarity):", JSON.stringify(DISTANCE_TO_SIMILARITY));
  const worst = faces.flatMap((fa, a) => faces.slice(a + 1).filter((fb) => fb.identity !== fa.identity).map((fb) => ({ a: `${fa.identity} ${fa.view}`, b: `${fb.identity} ${fb.view}`, d: faceDistance(fa.embedding, fb.embedding) })));
  worst.sort((x, y) => x.d - y.d);
  console.log("closest impostor pairs:", worst.slice(0, 5).map((w) => `${w.a} / ${w.b} ${w.d.toFixed(3)}`).join("; "));
  if (process.env.CALIBRATE_JSON) fs.writeFileSync(process.env.CALIBRATE_JSON, JSON.stringify({ genuineReal, genuineAug, impostor }, null, 1));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
