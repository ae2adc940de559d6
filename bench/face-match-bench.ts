// AI Face Matching: per face, the engine's describeFaces (decode upright, detect,
// align each face onto the 150 px chip, embed it and its mirror image in the face
// worker) beside the bare model calls in this thread (human.detect on a decoded
// tensor of the same size; the recognition net on ready chips), for a one-face
// 1 MP portrait and a group photo; then rankCandidates against a 400- and a
// 2,000-subject roster (ms per face).
//
//   npx tsx bench/face-match-bench.ts        (BENCH_RUNS=15)
//
// Writes bench/results/face-match.json; the last line of stdout is that JSON.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { atMegapixels, stats } from "./bg-bench-support";

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const FIXTURES = path.resolve("test/fixtures/faces");

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const out = await fn();
  return [out, performance.now() - t0];
}

/** A fixture scaled to about `mp` megapixels, as JPEG. */
const fixtureAt = (name: string, mp: number) => atMegapixels(path.join(FIXTURES, name), mp);

async function perFace() {
  const { describeFaces, warmUpFaces, faceEngineConfig } = await import("@/lib/engines/ml/faces");
  const { loadHuman } = await import("@/lib/engines/ml/faces/human-model");
  const { loadRecognitionNet } = await import("@/lib/engines/ml/faces/recognition-model");
  const human = await loadHuman({ minConfidence: 0.2, maxFaces: 30 });
  const net = loadRecognitionNet(human.tf);
  await warmUpFaces({ embed: true });
  const chip = new Uint8Array(150 * 150 * 3).fill(128);
  await net.embed([chip]);
  const rows: Record<string, unknown>[] = [];
  const out: Record<string, unknown> = {};
  for (const [label, file, mp] of [["portrait 1 MP", "obama.jpg", 1], ["group photo 2 MP", "obama_and_biden.jpg", 2]] as const) {
    const photo = await fixtureAt(file, mp);
    const meta = await sharp(photo).metadata();
    const edge = faceEngineConfig().detectLongEdge;
    const k = Math.min(1, edge / Math.max(meta.width!, meta.height!));
    const { data, info } = await sharp(photo).resize(Math.round(meta.width! * k), Math.round(meta.height! * k)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const bareDetect: number[] = [], bareEmbed: number[] = [], engine: number[] = [], embedPart: number[] = [];
    let faces = 0;
    for (let i = 0; i < RUNS + 2; i++) {
      // Alternated, so machine noise hits both alike; the first two runs are warm-up.
      const [, b] = await timed(async () => {
        const t = human.tf.tensor3d(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), [info.height, info.width, 3], "int32");
        await human.detect(t);
        t.dispose();
      });
      const [d, e] = await timed(() => describeFaces(photo));
      faces = d.faces.length;
      // The bare net on as many ready chips as the engine embeds (each face and its mirror).
      const [, n] = await timed(() => net.embed(Array.from({ length: 2 * faces }, () => chip)));
      if (i >= 2) {
        bareDetect.push(b);
        bareEmbed.push(n);
        engine.push(e);
        embedPart.push(d.timingsMs.embed);
      }
    }
    const bare = stats(bareDetect).p50 + stats(bareEmbed).p50;
    out[label] = {
      photo: `${file} at ${meta.width} x ${meta.height}`,
      faces,
      bareDetectMs: stats(bareDetect),
      bareEmbedMs: stats(bareEmbed),
      engineMs: stats(engine),
      engineEmbedPartMs: stats(embedPart),
      engineVsBare: +(stats(engine).p50 / bare).toFixed(2),
      embedVsBareNet: +(stats(embedPart).p50 / stats(bareEmbed).p50).toFixed(2),
    };
    rows.push(
      { photo: label, step: "bare human.detect (decoded tensor)", p50: stats(bareDetect).p50, "per face": Math.round(stats(bareDetect).p50 / faces) },
      { photo: label, step: `bare recognition net (${2 * faces} chips)`, p50: stats(bareEmbed).p50, "per face": Math.round(stats(bareEmbed).p50 / faces) },
      { photo: label, step: "describeFaces (engine, all steps)", p50: stats(engine).p50, "per face": Math.round(stats(engine).p50 / faces) },
      { photo: label, step: "  of which align + embed", p50: stats(embedPart).p50, "per face": Math.round(stats(embedPart).p50 / faces) },
    );
  }
  return { rows, out };
}

function ranking() {
  return import("@/lib/engines/ml/faces").then(({ rankCandidates }) => {
    const unit = () => {
      const v = Array.from({ length: 256 }, () => Math.random() - 0.5); // the length of the embeddings in use (Intel 0095)
      const n = Math.hypot(...v);
      return new Float32Array(v.map((x) => x / n));
    };
    const res: Record<string, number> = {};
    for (const roster of [400, 2000]) {
      const refs = Array.from({ length: roster }, (_, i) => ({ subjectId: `sub_${i}`, embedding: unit() }));
      const queries = Array.from({ length: 500 }, unit);
      for (const q of queries.slice(0, 50)) rankCandidates(q, refs, 2); // warm-up
      const t0 = performance.now();
      for (const q of queries) rankCandidates(q, refs, 2);
      res[`${roster} subjects`] = +((performance.now() - t0) / queries.length).toFixed(3);
    }
    return res;
  });
}

async function main() {
  const machine = `${os.cpus().length} x ${os.cpus()[0]?.model ?? "cpu"}, Node ${process.version}, load ${os.loadavg()[0]!.toFixed(1)}`;
  const { rows, out } = await perFace();
  console.log(`machine: ${machine}\nper photo (${RUNS} runs, ms):`);
  console.table(rows);
  for (const [k, v] of Object.entries(out)) console.log(`${k}: describeFaces ${(v as { engineVsBare: number }).engineVsBare}x the bare model calls (detect + net), p50`);
  const rankMsPerFace = await ranking();
  console.log("rankCandidates, ms per face (k = 2):", rankMsPerFace);
  const result = { machine, at: new Date().toISOString(), perPhoto: out, rankMsPerFace };
  const { shutDownFaces } = await import("@/lib/engines/ml/faces");
  await shutDownFaces();
  fs.mkdirSync("bench/results", { recursive: true });
  fs.writeFileSync("bench/results/face-match.json", JSON.stringify(result, null, 2));
  console.log(JSON.stringify(result));
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
