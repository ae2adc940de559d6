// Background removal quality, side by side in one run on the same photos: the engine
// before the person rule (ISNet alone), with the person rule as first merged
// ("previous") and as it is now ("after"):
// - portraits: BG_PORTRAIT_SET=<dir> with image/<name>.jpg and alpha/<name>.png
//   (the reference matte). Built from the MIT-licensed P3M repository's demo and
//   sample images with P3M-Net's mattes (see the README); skipped, and said so, without it.
// - products, logos and text: bench/bg-regression-set.ts (exact mattes, built here).
// - people (issue 38): BG_PEOPLE_SET=<dir> with one folder per category (raised-hands,
//   held-object, group, portrait, posters-statues, ...), each with image/<name>.jpg and
//   alpha/<name>.png; every photo is cut out as `person` and as `auto`. Kept outside the
//   repository (see bench/README.md for its sources); skipped, and said so, without it.
//   BG_HELDOUT_SET=<dir>: the held-out people (bench/people-set.ts's held-out/), the same way,
//   as the sets `heldout-<type>:<category>`, so that every set runs in one process. BG_FRESH_SET=<dir>: people-set.ts's
//   fresh/ (people14), as `fresh-<type>:<category>`. BG_UNSEEN_SET=<dir>: people-set.ts's unseen/ (people15), as
//   `unseen-<type>:<category>`.
//
//   BG_ISNET_STORE=<dir>: ISNet's mattes kept on disk by their input (withMatteStore below), for a re-run of other rules.
//
//   BG_PORTRAIT_SET=/path/to/set npx tsx bench/bg-quality-bench.ts   (~25 min on 2 busy cores)
//
// Prints mean / min IoU and mean alpha error per set and engine, and per photo;
// writes bench/results/bg-quality.json. Runs the models in this process (no worker).
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import crypto from "node:crypto";
import { loadIsnetModel, type IsnetModel } from "@/lib/engines/ml/background-removal/isnet-model";
import { loadPersonModel } from "@/lib/engines/ml/background-removal/person-model";
import { loadPoseModel, type PoseModel } from "@/lib/engines/ml/background-removal/pose-model";
import { cutOut, type EngineModels } from "@/lib/engines/ml/background-removal/pipeline";
import { PERSON_RULE } from "@/lib/engines/ml/background-removal/person-matte";
import { rememberMattes } from "@/lib/engines/ml/background-removal/matte-memo";
import { engineConfig } from "@/lib/engines/ml/background-removal/engine-config";
import { alphaPlane, scoreMatte, type MatteScore } from "@/lib/engines/ml/background-removal/matte-quality";
import type { BgRemovalOptions, SubjectType } from "@/lib/engines/ml/background-removal";
import { countPeople, mayHoldSeveral } from "@/lib/engines/ml/background-removal/count-people";
import { detectFaces, shutDownFaces } from "@/lib/engines/ml/faces";
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

/**
 * The people set: a folder per category; each photo as `person`, then as `auto` (adjacent, so ISNet runs once a photo).
 * `prefix` names its sets (`people-person:<category>`; the held-out set's `heldout-person:<category>`).
 */
async function peopleSet(dir: string | undefined, prefix = "people", variable = "BG_PEOPLE_SET"): Promise<Case[]> {
  if (!dir) {
    console.log(`${variable} is not set: the ${prefix} set (raised hands, held objects, groups) is skipped.`);
    return [];
  }
  const out: Case[] = [];
  for (const category of fs.readdirSync(dir).sort()) {
    const imageDir = path.join(dir, category, "image");
    if (!fs.existsSync(imageDir)) continue;
    for (const file of fs.readdirSync(imageDir).sort()) {
      const image = fs.readFileSync(path.join(imageDir, file));
      const { width, height } = await sharp(image).metadata();
      const alpha = await alphaPlane(path.join(dir, category, "alpha", file.replace(/\.\w+$/, ".png")), width!, height!, true);
      for (const subjectType of ["person", "auto"] as const) {
        out.push({ set: `${prefix}-${subjectType}:${category}`, name: file, subjectType, image, alpha, width: width!, height: height! });
      }
    }
  }
  return out;
}

/**
 * BG_ISNET_STORE=<dir>: ISNet's 1024² matte kept on disk as <dir>/<sha1 of the input tensor> (the key matte-memo.ts
 * uses), so a second run of the bench (another rule, the same photos) skips ISNet's 2-3 s a photo (the whole
 * `person` set in 2 min instead of ~20). A stored matte's "inference" time is then its read (~20 ms), not the
 * model's: compare engines within one run (the time ratio), not the times of runs with and without a store.
 */
function withMatteStore(model: IsnetModel, dir: string | undefined): IsnetModel {
  if (!dir) return model;
  fs.mkdirSync(dir, { recursive: true });
  return {
    ...model,
    async run(input: Float32Array): Promise<Float32Array> {
      const key = crypto.createHash("sha1").update(new Uint8Array(input.buffer, input.byteOffset, input.byteLength)).digest("hex");
      const file = path.join(dir, key);
      if (fs.existsSync(file)) {
        const bytes = fs.readFileSync(file);
        return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
      }
      const matte = await model.run(input);
      // Written aside and renamed, so a bench in another worktree sharing the store never reads half a matte.
      const partial = `${file}.${process.pid}.partial`;
      fs.writeFileSync(partial, Buffer.from(matte.buffer, matte.byteOffset, matte.byteLength));
      fs.renameSync(partial, file);
      return matte;
    },
  };
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const r3 = (x: number) => Math.round(x * 1000) / 1000;

async function main() {
  const { threads } = engineConfig();
  // Every engine below sees the same photo: the remembered matte (matte-memo.ts) runs ISNet once a photo, not once an engine.
  const isnet = rememberMattes(withMatteStore(await loadIsnetModel({ threads }), process.env.BG_ISNET_STORE), 2);
  const person = await loadPersonModel({ threads });
  // The pose model as the worker loads it: on the first photo with a doubtful piece for it to judge.
  let poseLoading: Promise<PoseModel> | undefined;
  const pose = () => (poseLoading ??= loadPoseModel({ threads }));
  // The rule as merged on 2026-11-27's evening: every second look taken, however small its square.
  // Every version before people7 had no reaching limbs (limbReach) and no pose cue.
  // Every version before people9 filled the gap between people (gapColour); before people10 none looked again in tiles (tileLook);
  // before people13 none cleared a fill detached from ISNet's kept regions (detachedFill).
  // The rule as this file's older engines knew it: without the steps of the eighteenth session (people18, people19, defocusFill).
  const RULE17 = { ...PERSON_RULE, guidedNearChanges: false, groundColour: 0, defocusFill: 0, softBehind: 0, floatingClear: 0, betweenColour: 0, bodilessFill: 0 };
  // The rule as merged at the nineteenth session's start (stop 51): without that session's steps (softBehind, floatingClear) and the twentieth's (betweenColour, bodilessFill).
  const RULE51 = { ...PERSON_RULE, softBehind: 0, floatingClear: 0, betweenColour: 0, bodilessFill: 0 };
  const PRE10 = { ...RULE17, tileLook: 0, headless: 0, detachedFill: false, farBehind: 0, guidedNearChanges: false };
  const PRE9 = { ...PRE10, gapColour: 0 };
  const BASE = { ...PRE9, limbReach: 0, poseArmShare: 0 };
  const EVE = { ...BASE, secondLookMinShare: 0 };
  const engines: Record<string, EngineModels> = {
    before: { isnet, person: null },
    // The person rule as first merged (mean IoU 0.970, the sculpture photo 0.841): the solid
    // fill lent from one side and stopping `core` inside the mask.
    previous: { isnet, person: async () => person, personRule: { ...EVE, bothSides: false, edgeFillGap: 0 } },
    // The rule before whole people (issue 38): ISNet's matte beyond the band always cleared, a raised hand too.
    "no-attached": { isnet, person: async () => person, personRule: { ...EVE, attachedMaxShare: 0, sureFill: 0, keptTops: false } },
    // The rule before the sure-person fill and the tops of every kept person (issue 38, 2026-11-27).
    "2026-11-26": { isnet, person: async () => person, personRule: { ...EVE, sureFill: 0, keptTops: false } },
    "sure-only": { isnet, person: async () => person, personRule: { ...EVE, keptTops: false } },
    "tops-only": { isnet, person: async () => person, personRule: { ...EVE, sureFill: 0 } },
    // The rule before the refused overshoot's rim was kept out (the sculpture photo's 0.883), people counted by regions only.
    "2026-11-27": { isnet, person: async () => person, personRule: { ...EVE, sureRim: false } },
    // The rule as merged on 2026-11-27's evening (sureRim), people counted by faces beside every cut-out.
    "2026-11-27-eve": { isnet, person: async () => person, personRule: EVE },
    // The rule as merged on 2026-11-27's night (a second look only at a person's scale, faces only where a region could hold two), before the sure fill's hysteresis.
    "2026-11-27-night": { isnet, person: async () => person, personRule: { ...BASE, sureGrow: 0 } },
    // The rule as merged on 2026-11-27 late (the sure fill's hysteresis), before a body running out of the
    // frame's bottom was filled (sureFrameBottom) and the look at ISNet's subject when the whole frame shows no one (subjectLook).
    "2026-11-27-late": { isnet, person: async () => person, personRule: { ...BASE, sureFrameBottom: false, subjectLook: false } },
    // The rule as merged after people5 (a body out of the frame's bottom, the look at ISNet's subject), before
    // ISNet's faded limbs took the person model's probability (softJoin) and unsure limbs reaching out were kept (limbReach).
    "2026-11-27-people5": { isnet, person: async () => person, personRule: { ...PRE9, softJoin: 0, limbReach: 0, poseArmShare: 0 } },
    // Measured by people6 without a pose cue (bench/README.md): unsure limbs reaching out kept (limbReach), and with them
    // ISNet's faded limbs taking the person model's probability (softJoin).
    "limb-reach": { isnet, person: async () => person, personRule: { ...PRE9, limbReach: 0.04, poseArmShare: 0 } },
    "soft-join": { isnet, person: async () => person, personRule: { ...PRE9, limbReach: 0.04, softJoin: 0.1, poseArmShare: 0 } },
    // With the pose cue (people7): softJoin's faded pieces too are kept only along an arm the pose model finds.
    "soft-pose": { isnet, person: async () => person, pose, personRule: { ...PRE9, softJoin: 0.1 } },
    // The rule as merged after people7 (limbReach gated by the pose cue), before poseGrow 0.3 was turned on (people8).
    people7: { isnet, person: async () => person, pose, personRule: { ...PRE9, poseGrow: 0 } },
    // The rule as merged after people8 (poseGrow 0.3), before the gap between people was left to ISNet (gapColour, people9).
    people8: { isnet, person: async () => person, pose, personRule: PRE9 },
    // The rule as merged after people9 (gapColour), before the person model looked again in tiles along a group (tileLook, people10).
    people9: { isnet, person: async () => person, pose, personRule: PRE10 },
    // The rule as merged after people10/people11, before a kept region with no body keypoint was looked at again (headless, people12).
    people11: { isnet, person: async () => person, pose, personRule: { ...RULE17, headless: 0, detachedFill: false, farBehind: 0, guidedNearChanges: false } },
    // headless 0.8 as measured by people12 (the same as people12).
    headless: { isnet, person: async () => person, pose, personRule: { ...RULE17, headless: 0.8, detachedFill: false, farBehind: 0, guidedNearChanges: false } },
    // The rule as merged after people12 (headless 0.8 on), before a fill detached from ISNet's kept regions was cleared (detachedFill, people13).
    people12: { isnet, person: async () => person, pose, personRule: { ...RULE17, detachedFill: false, farBehind: 0, guidedNearChanges: false } },
    // The rule as merged after people13 (detachedFill on), before people far behind the subjects were cleared (farBehind, people14).
    people13: { isnet, person: async () => person, pose, personRule: { ...RULE17, farBehind: 0, guidedNearChanges: false } },
    // The tile look from a lower share of ISNet's subject outside the mask (people10: 0.25 is on).
    "tile-0.1": { isnet, person: async () => person, pose, personRule: { ...RULE17, tileLook: 0.1, detachedFill: false, farBehind: 0, guidedNearChanges: false } },
    // The person model's 0.3 (0.2) along an arm the pose model found, when it ran (people7; 0.3 on since people8).
    "pose-grow": { isnet, person: async () => person, pose, personRule: { ...PRE9, poseGrow: 0.3 } },
    "pose-grow-0.2": { isnet, person: async () => person, pose, personRule: { ...PRE9, poseGrow: 0.2 } },
    // The sure fill's limb-like pieces gated by the pose cue (people8): when the pose model ran for a reaching
    // piece ("ran"), or run for them too ("run"); and "ran" with poseGrow 0.3.
    // The rule as merged after people17, before the guided upsampling kept to the rule's own pieces on a photo at the working size (guidedNearChanges, people19).
    people17: { isnet, person: async () => person, pose, personRule: RULE17 },
    // The rule as merged after people19 and people18 (guidedNearChanges on, groundColour at 10, since turned off), before a person
    // behind out of focus stayed out of the sure fill (defocusFill).
    people18: { isnet, person: async () => person, pose, personRule: { ...RULE51, groundColour: 10, groundLying: 0, defocusFill: 0 } },
    // The rule as merged at stop 51 (people18, people19, defocusFill), before the nineteenth session's steps.
    stop51: { isnet, person: async () => person, pose, personRule: RULE51 },
    after: { isnet, person: async () => person, pose },
    // The rule with ISNet's plain bicubic upsampling instead of the guided filter the rule switches on (people19: the edges; measured on main's rule, guidedNearChanges false).
    "after-bicubic": { isnet, person: async () => person, pose, guidedPersonEdges: false },
  };
  // BG_RULE_VARIANTS="sureFill=0;tileLook=0": one engine a variant, the rule as merged with that PERSON_RULE field set
  // (named "rule:sureFill=0"; "a=1,b=2" sets both), counting faces as `after` does: which single step makes a photo's figure (people17).
  for (const variant of (process.env.BG_RULE_VARIANTS ?? "").split(";").map((x) => x.trim()).filter(Boolean)) {
    const personRule: Record<string, unknown> = { ...PERSON_RULE };
    for (const [field, value] of variant.split(",").map((kv) => kv.split("=").map((x) => x.trim()))) {
      if (!field || value === undefined || !(field in PERSON_RULE)) throw new Error(`BG_RULE_VARIANTS: no PERSON_RULE field "${field}" (${variant})`);
      personRule[field] = value === "true" ? true : value === "false" ? false : Number(value);
    }
    engines[`rule:${variant}`] = { isnet, person: async () => person, pose, personRule: personRule as typeof PERSON_RULE };
  }
  // Engines that count people by their faces as removeBackground does (index.ts), in their time:
  // "always", the face engine in its worker beside the cut-out for "person" (after it for an "auto"
  // portrait), as first merged; "gated", after the cut-out and only when a kept region could hold
  // more than one person (mayHoldSeveral), as now. A gated engine that skipped the faces also
  // reports, untimed, what they would have counted (`peopleByFaces`).
  const countsFaces: Record<string, "always" | "gated"> = { "2026-11-27-eve": "always", "2026-11-27-night": "gated", "2026-11-27-late": "gated", "2026-11-27-people5": "gated", "limb-reach": "gated", "soft-join": "gated", "soft-pose": "gated", "pose-grow": "gated", "pose-grow-0.2": "gated", people7: "gated", people8: "gated", people9: "gated", people11: "gated", headless: "gated", people12: "gated", people13: "gated", "tile-0.1": "gated", people17: "gated", people18: "gated", stop51: "gated", after: "gated", "after-bicubic": "gated" };
  for (const name of Object.keys(engines).filter((e) => e.startsWith("rule:"))) countsFaces[name] = "gated";
  const facesOf = async (image: Buffer) => {
    const found = await detectFaces(image);
    return { boxes: found.faces.map((f) => f.box), width: found.width, height: found.height };
  };
  // Speed step with a quality cost: ISNet at a smaller input (scripts/isnet-any-size.ts's graph,
  // the same weights); times in bench/bg-model-bench.ts. Skipped, and said so, without the file.
  const anySize = process.env.BG_ISNET_ANY_SIZE ?? ".data/models/isnet-medium-any-size.onnx";
  if (fs.existsSync(anySize)) {
    for (const size of [768, 640]) {
      engines[`after-isnet-${size}`] = { isnet: await loadIsnetModel({ threads, file: anySize, size }), person: async () => person };
    }
  } else console.log(`${anySize} not found (npx tsx scripts/isnet-any-size.ts): the input-size steps are skipped.`);
  // BG_QUALITY_ENGINES=previous,after compares only those (a quicker re-run after a change).
  const chosen = process.env.BG_QUALITY_ENGINES?.split(",").map((x) => x.trim()) ?? Object.keys(engines);
  const engineNames = Object.keys(engines).filter((e) => chosen.includes(e) || e.startsWith("rule:"));
  const portraits = await portraitSet(process.env.BG_PORTRAIT_SET);
  const cases: Case[] = [
    ...(await peopleSet(process.env.BG_PEOPLE_SET)),
    // The held-out people (bench/people-set.ts `held-out/`), summed apart from the 41: every set in one run.
    ...(await peopleSet(process.env.BG_HELDOUT_SET, "heldout", "BG_HELDOUT_SET")),
    // people14's fresh check (bench/people-set.ts `fresh/`): photos no rule was tuned on, run once a round, after the constants are chosen.
    ...(process.env.BG_FRESH_SET ? await peopleSet(process.env.BG_FRESH_SET, "fresh", "BG_FRESH_SET") : []),
    // people15's second unseen set (people-set.ts `unseen/`): run once, with the final rule.
    ...(process.env.BG_UNSEEN_SET ? await peopleSet(process.env.BG_UNSEEN_SET, "unseen", "BG_UNSEEN_SET") : []),
    ...portraits,
    // The same portraits as "auto": the portrait check must pick the person rule by itself.
    ...portraits.map((c) => ({ ...c, set: "portraits-auto", subjectType: "auto" as const })),
    ...(await regressionSet()).map((c) => ({ ...c, set: "products-logos-text" })),
    // Products, logos and text as "auto" too: the portrait check must leave them alone.
    ...(await regressionSet()).map((c) => ({ ...c, set: "products-logos-text-auto", subjectType: "auto" as const })),
  ];
  // BG_QUALITY_SETS=portraits-auto,... measures only those sets (a quicker re-run after a change).
  const only = process.env.BG_QUALITY_SETS?.split(",").map((x) => x.trim());
  // A people set's name before its category ("people-person") selects every category.
  if (only) cases.splice(0, cases.length, ...cases.filter((c) => only.includes(c.set) || only.includes(c.set.split(":")[0]!)));
  const dump = process.env.BG_QUALITY_DUMP;
  const rows: { set: string; name: string; engine: string; iou: number; alphaError: number; ms: number; inferenceMs: number; ruleMs: number; peopleKept: number | null; peopleByFaces: number | null; doubts: number }[] = [];
  for (const c of cases) {
    const opts: BgRemovalOptions = { subjectType: c.subjectType, edgeSoftness: 3, highDetail: false, background: "transparent" };
    for (const engine of engineNames) {
      const models = engines[engine]!;
      let t0 = performance.now();
      const counting = countsFaces[engine];
      const early = counting === "always" && c.subjectType === "person" ? facesOf(c.image) : null;
      const out = await cutOut(models, c.image, opts, 50_000_000);
      let peopleByFaces: number | null = null;
      // BG_QUALITY_UNTIMED_FACES=0: no untimed count (`peopleByFaces` of a gated engine that skipped the faces): a quicker run of many engines (people19).
      if (counting === "gated" && out.peopleMap && out.quality.peopleKept !== null && !mayHoldSeveral(out.peopleMap)) {
        if (process.env.BG_QUALITY_UNTIMED_FACES !== "0") {
          const untimed = performance.now();
          const faces = await facesOf(c.image);
          peopleByFaces = countPeople(out.peopleMap, faces.boxes, faces);
          t0 += performance.now() - untimed;
        }
      } else if (counting && out.peopleMap && out.quality.peopleKept !== null) {
        const faces = await (early ?? facesOf(c.image));
        out.quality.peopleKept = peopleByFaces = countPeople(out.peopleMap, faces.boxes, faces);
      } else await early;
      const ms = Math.round(performance.now() - t0);
      const cut = await alphaPlane(out.png, c.width, c.height);
      const score: MatteScore = scoreMatte(cut, c.alpha);
      // BG_QUALITY_DUMP=<dir>: each cut-out's alpha as <dir>/<engine>/<name>.png (to look at beside the reference).
      if (dump && c.subjectType === "person") {
        fs.mkdirSync(path.join(dump, engine), { recursive: true });
        await sharp(Buffer.from(cut), { raw: { width: c.width, height: c.height, channels: 1 } }).png().toFile(path.join(dump, engine, c.name.replace(/\.\w+$/, ".png")));
      }
      // The time after ISNet (the person model, the rule, clean-up, upsampling, edges, PNG): what the rule's versions change.
      const t = out.timingsMs;
      const ruleMs = (t.person ?? 0) + (t.matte ?? 0) + (t.upsample ?? 0) + (t.edges ?? 0);
      const { peopleKept, doubtfulRegions } = out.quality;
      rows.push({ set: c.set, name: c.name, engine, iou: r3(score.iou), alphaError: r3(score.alphaError), ms, inferenceMs: t.inference ?? 0, ruleMs, peopleKept, peopleByFaces, doubts: doubtfulRegions.length });
      console.log(`${c.set.padEnd(34)} ${c.name.padEnd(16)} ${engine.padEnd(11)} IoU ${score.iou.toFixed(3)}  alpha error ${score.alphaError.toFixed(3)}  ${ms} ms (rule ${ruleMs}${t.pose !== undefined ? `, pose ${t.pose}` : ""})  people ${peopleKept ?? "-"}${peopleByFaces !== null && peopleByFaces !== peopleKept ? ` (faces: ${peopleByFaces})` : ""}  doubtful ${doubtfulRegions.map((d) => d.reason).join(",") || "-"}`);
    }
  }
  const summary: Record<string, Record<string, { n: number; meanIou: number; minIou: number; meanAlphaError: number; meanMs: number; meanInferenceMs: number; meanRuleMs: number }>> = {};
  // Each people set's categories together as well ("people-person:all").
  const isPeople = (set: string) => set.startsWith("people-") || set.startsWith("heldout-") || set.startsWith("fresh-") || set.startsWith("unseen-");
  const peopleAll = [...new Set(rows.map((r) => r.set.split(":")[0]!).filter(isPeople))];
  for (const prefix of peopleAll) for (const r of rows.filter((x) => x.set.startsWith(`${prefix}:`))) rows.push({ ...r, set: `${prefix}:all` });
  for (const set of [...new Set(rows.map((r) => r.set))]) {
    summary[set] = {};
    for (const engine of engineNames) {
      const rs = rows.filter((r) => r.set === set && r.engine === engine);
      summary[set][engine] = { n: rs.length, meanIou: r3(mean(rs.map((r) => r.iou))), minIou: r3(Math.min(...rs.map((r) => r.iou))), meanAlphaError: r3(mean(rs.map((r) => r.alphaError))), meanMs: Math.round(mean(rs.map((r) => r.ms))), meanInferenceMs: Math.round(mean(rs.map((r) => r.inferenceMs))), meanRuleMs: Math.round(mean(rs.map((r) => r.ruleMs))) };
    }
  }
  // Per photo, engines side by side (the people set's categories: the minimum matters, not only the mean).
  for (const set of [...new Set(rows.map((r) => r.set))].filter((x) => isPeople(x) && !x.endsWith(":all"))) {
    console.log(`\n${set}: IoU per photo (${engineNames.join(" / ")})`);
    for (const name of [...new Set(rows.filter((r) => r.set === set).map((r) => r.name))]) {
      const rs = engineNames.map((e) => rows.find((r) => r.set === set && r.name === name && r.engine === e));
      console.log(`  ${name.padEnd(16)} ${rs.map((r) => (r ? r.iou.toFixed(3) : "  -  ")).join(" / ")}  people ${rs.map((r) => r?.peopleKept ?? "-").join("/")}`);
    }
  }
  // Time against the rule as it was, per photo: ISNet runs once a photo (the first engine pays it,
  // the others get the remembered matte), so each engine's time is ISNet's own once plus its own rest.
  const reference = process.env.BG_QUALITY_TIME_BASE ?? "2026-11-27-people5";
  if (engineNames.includes(reference)) {
    const photoRows = rows.filter((r) => !r.set.endsWith(":all"));
    for (const engine of engineNames.filter((e) => e !== reference)) {
      const ratios: number[] = [];
      for (const r of photoRows.filter((x) => x.engine === engine)) {
        const base = photoRows.find((x) => x.engine === reference && x.set === r.set && x.name === r.name);
        if (!base) continue;
        const isnetMs = Math.max(...photoRows.filter((x) => x.set === r.set && x.name === r.name).map((x) => x.inferenceMs));
        ratios.push((isnetMs + r.ms - r.inferenceMs) / (isnetMs + base.ms - base.inferenceMs));
      }
      ratios.sort((a, b) => a - b);
      if (ratios.length) console.log(`time per photo, ${engine} / ${reference} (ISNet once plus each engine's rest; ${ratios.length} photos): median ${ratios[Math.floor(ratios.length / 2)]!.toFixed(3)}x, mean ${mean(ratios).toFixed(3)}x`);
    }
  }
  console.table(Object.entries(summary).flatMap(([set, e]) => Object.entries(e).map(([engine, s]) => ({ set, engine, ...s }))));
  fs.mkdirSync("bench/results", { recursive: true });
  fs.writeFileSync("bench/results/bg-quality.json", JSON.stringify({ when: new Date().toISOString(), summary, rows }, null, 2));
  await Promise.all(Object.values(engines).map((e) => e.isnet).filter((m, i, all) => all.indexOf(m) === i).map((m) => m.release()));
  person.release();
  if (poseLoading) (await poseLoading).release();
  await shutDownFaces();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
