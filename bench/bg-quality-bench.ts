// Background removal quality, side by side in one run on the same photos: the engine
// before the person rule (ISNet alone), with the person rule as first merged
// ("previous") and as it is now ("after"):
// - portraits: BG_PORTRAIT_SET=<dir> with image/<name>.jpg and alpha/<name>.png
//   (the reference matte). Built from the MIT-licensed P3M repository's demo and
//   sample images with P3M-Net's mattes (see the README); skipped, and said so, without it.
// - products, logos and text: bench/bg-regression-set.ts (exact mattes, built here).
//
//   BG_PORTRAIT_SET=/path/to/set npx tsx bench/bg-quality-bench.ts   (~25 min on 2 busy cores)
//
// Prints mean / min IoU and mean alpha error per set and engine, and per photo;
// writes bench/results/bg-quality.json. Runs the models in this process (no worker).
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { loadIsnetModel } from "@/lib/engines/ml/background-removal/isnet-model";
import { loadPersonModel } from "@/lib/engines/ml/background-removal/person-model";
import { cutOut, type EngineModels } from "@/lib/engines/ml/background-removal/pipeline";
import { PERSON_RULE } from "@/lib/engines/ml/background-removal/person-matte";
import { rememberMattes } from "@/lib/engines/ml/background-removal/matte-memo";
import { engineConfig } from "@/lib/engines/ml/background-removal/engine-config";
import { alphaPlane, scoreMatte, type MatteScore } from "@/lib/engines/ml/background-removal/matte-quality";
import type { BgRemovalOptions, SubjectType } from "@/lib/engines/ml/background-removal";
import { regressionSet } from "./bg-regression-set";

type Case = { set: string; name: string; subjectType: SubjectType; image: Buffer; alpha: Uint8Array; width: number; height: number };

async function portraitSet(dir: string | undefined): Promise<Case[]> {
  if (!dir) {
    console.log("BG_PORTRAIT_SET is not set: the portrait set is skipped.");
    return [];
  }
  const out: Case[] = [];
  for (const file of fs.readdirSync(path.join(dir, "image")).sort()) {
    const image = fs.readFileSync(path.join(dir, "image", file));
    const { width, height } = await sharp(image).metadata();
    const alpha = await alphaPlane(path.join(dir, "alpha", file.replace(/\.\w+$/, ".png")), width!, height!, true);
    out.push({ set: "portraits", name: file, subjectType: "person", image, alpha, width: width!, height: height! });
  }
  return out;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const r3 = (x: number) => Math.round(x * 1000) / 1000;

async function main() {
  const { threads } = engineConfig();
  // Every engine below sees the same photo: the remembered matte (matte-memo.ts) runs ISNet once a photo, not once an engine.
  const isnet = rememberMattes(await loadIsnetModel({ threads }), 2);
  const person = await loadPersonModel({ threads });
  const engines: Record<string, EngineModels> = {
    before: { isnet, person: null },
    // The person rule as first merged (mean IoU 0.970, the sculpture photo 0.841): the solid
    // fill lent from one side and stopping `core` inside the mask.
    previous: { isnet, person: async () => person, personRule: { ...PERSON_RULE, bothSides: false, edgeFillGap: 0 } },
    // The rule before whole people (issue 38): ISNet's matte beyond the band always cleared, a raised hand too.
    "no-attached": { isnet, person: async () => person, personRule: { ...PERSON_RULE, attachedMaxShare: 0 } },
    after: { isnet, person: async () => person },
  };
  // Speed step with a quality cost: ISNet at a smaller input (scripts/isnet-any-size.py's graph,
  // the same weights); times in bench/bg-model-bench.ts. Skipped, and said so, without the file.
  const anySize = process.env.BG_ISNET_ANY_SIZE ?? ".data/models/isnet-medium-any-size.onnx";
  if (fs.existsSync(anySize)) {
    for (const size of [768, 640]) {
      engines[`after-isnet-${size}`] = { isnet: await loadIsnetModel({ threads, file: anySize, size }), person: async () => person };
    }
  } else console.log(`${anySize} not found (python3 scripts/isnet-any-size.py): the input-size steps are skipped.`);
  // BG_QUALITY_ENGINES=previous,after compares only those (a quicker re-run after a change).
  const chosen = process.env.BG_QUALITY_ENGINES?.split(",").map((x) => x.trim()) ?? Object.keys(engines);
  const engineNames = Object.keys(engines).filter((e) => chosen.includes(e));
  const portraits = await portraitSet(process.env.BG_PORTRAIT_SET);
  const cases: Case[] = [
    ...portraits,
    // The same portraits as "auto": the portrait check must pick the person rule by itself.
    ...portraits.map((c) => ({ ...c, set: "portraits-auto", subjectType: "auto" as const })),
    ...(await regressionSet()).map((c) => ({ ...c, set: "products-logos-text" })),
    // Products, logos and text as "auto" too: the portrait check must leave them alone.
    ...(await regressionSet()).map((c) => ({ ...c, set: "products-logos-text-auto", subjectType: "auto" as const })),
  ];
  // BG_QUALITY_SETS=portraits-auto,... measures only those sets (a quicker re-run after a change).
  const only = process.env.BG_QUALITY_SETS?.split(",").map((x) => x.trim());
  if (only) cases.splice(0, cases.length, ...cases.filter((c) => only.includes(c.set)));
  const rows: { set: string; name: string; engine: string; iou: number; alphaError: number; ms: number; inferenceMs: number }[] = [];
  for (const c of cases) {
    const opts: BgRemovalOptions = { subjectType: c.subjectType, edgeSoftness: 3, highDetail: false, background: "transparent" };
    for (const engine of engineNames) {
      const models = engines[engine]!;
      const t0 = performance.now();
      const out = await cutOut(models, c.image, opts, 50_000_000);
      const ms = Math.round(performance.now() - t0);
      const score: MatteScore = scoreMatte(await alphaPlane(out.png, c.width, c.height), c.alpha);
      rows.push({ set: c.set, name: c.name, engine, iou: r3(score.iou), alphaError: r3(score.alphaError), ms, inferenceMs: out.timingsMs.inference ?? 0 });
      console.log(`${c.set.padEnd(26)} ${c.name.padEnd(20)} ${engine.padEnd(8)} IoU ${score.iou.toFixed(3)}  alpha error ${score.alphaError.toFixed(3)}  ${ms} ms`);
    }
  }
  const summary: Record<string, Record<string, { n: number; meanIou: number; minIou: number; meanAlphaError: number; meanMs: number; meanInferenceMs: number }>> = {};
  for (const set of [...new Set(rows.map((r) => r.set))]) {
    summary[set] = {};
    for (const engine of engineNames) {
      const rs = rows.filter((r) => r.set === set && r.engine === engine);
      summary[set][engine] = { n: rs.length, meanIou: r3(mean(rs.map((r) => r.iou))), minIou: r3(Math.min(...rs.map((r) => r.iou))), meanAlphaError: r3(mean(rs.map((r) => r.alphaError))), meanMs: Math.round(mean(rs.map((r) => r.ms))), meanInferenceMs: Math.round(mean(rs.map((r) => r.inferenceMs))) };
    }
  }
  console.table(Object.entries(summary).flatMap(([set, e]) => Object.entries(e).map(([engine, s]) => ({ set, engine, ...s }))));
  fs.mkdirSync("bench/results", { recursive: true });
  fs.writeFileSync("bench/results/bg-quality.json", JSON.stringify({ when: new Date().toISOString(), summary, rows }, null, 2));
  await Promise.all(Object.values(engines).map((e) => e.isnet).filter((m, i, all) => all.indexOf(m) === i).map((m) => m.release()));
  person.release();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
