// Builds the people and portrait sets of bench/bg-quality-bench.ts (issue 38) from fetched
// mirrors of three public GitHub repositories, by the photo lists below, so a session needs only
// the mirrors and one command. Nothing here is committed data: the photos stay outside the repository.
//
//   PEOPLE_SOURCES=/work/.mirror npx tsx bench/people-set.ts /work/eval-x
//   BG_PEOPLE_SET=/work/eval-x/people BG_PORTRAIT_SET=/work/eval-x/p3m npx tsx bench/bg-quality-bench.ts
//
// PEOPLE_SOURCES holds one folder per repository, named `<owner>+<name>`, each a git directory
// (`<owner>+<name>/repo`, as the fetch tool leaves it) or a checkout; the photos are read from HEAD.
// Writes <out>/people/<category>/{image,alpha}/ (41 photos, see LISTS), <out>/p3m/{image,alpha}/
// (P3M's 15) and <out>/cihp/group-cihp/{image,alpha}/ (CIHP_PGN's 5, person = any part label;
// its own folder so that "all 41" stays the 41), <out>/held-out/ (HELD_OUT's 35 and CIHP's 5, see below) and
// <out>/fresh/fresh-groups/ (people14's unseen check, FRESH below), <out>/unseen/unseen-single/ (people15's, UNSEEN below),
// <out>/unseen3/unseen-next/ (people16's, UNSEEN3 below), <out>/unseen4/unseen-fourth/ (people18's, UNSEEN4 below) and
// <out>/unseen5/unseen-fifth/ (the lead's last check of a stop, UNSEEN5 below), <out>/unseen6/unseen-sixth/ (UNSEEN6),
// <out>/unseen7/unseen-seventh/ and <out>/unseen8/unseen-eighth/ (UNSEEN7, UNSEEN8).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { components } from "@/lib/engines/ml/background-removal/matte-ops";

/**
 * VikramShenoy97/Human-Segmentation-Dataset (no licence stated; remove.bg masks): photo numbers by
 * category, chosen by looking at them (bench/README.md). Left out on sight of their references: v52
 * (keeps a tree trunk), v110 (a brightness threshold), v186 (keeps a star sculpture).
 */
const LISTS: Record<string, number[]> = {
  "raised-hands": [2, 35, 49, 102, 109, 261, 270, 284, 285, 300],
  "held-object": [105, 154, 278, 287, 86, 107, 47, 280],
  group: [8, 12, 13, 20, 39, 88, 91, 94, 254, 258, 263, 268, 272],
  portrait: [3, 10, 24, 43, 58, 99, 264, 282],
  "posters-statues": [22, 147],
};

/**
 * A held-out set of the same repository (people9, round 2): photos no rule was tuned on, chosen by id from
 * contact sheets of the photos alone, before any engine ran on them: two or more people (side by side with
 * background between them, joined hands, arms around each other) and a few single people. Written to
 * <out>/held-out/<category>/ with CIHP_PGN's 5 as held-out/group-cihp, so one BG_PEOPLE_SET runs them all.
 */
const HELD_OUT: Record<string, number[]> = {
  "group-ho": [17, 18, 19, 21, 23, 28, 61, 75, 89, 90, 92, 93, 202, 216, 221, 223, 224, 225, 229, 243, 249, 253, 256, 265, 266, 267, 273, 277, 289],
  "single-ho": [7, 51, 53, 54, 100, 143],
};

/**
 * A fresh check set (people14, 2026-12-03), fixed before any engine ran on it: the repository's photos that no list
 * above uses (nor the three left out on sight: v52, v110, v186), in file-number order, whose reference mask has at
 * least `minPeople` pieces (8-connected, alpha ≥ 128) of at least `minShare` of the frame each: two people or more who
 * do not touch in the reference (two-person and group photos; a pair who touch everywhere is one piece and not taken),
 * the first `count` of them (12 qualify, so all: v163, v209, v210, v237, v238, v241, v242, v245, v247, v248, v251, v252). Chosen from the reference masks alone, never from a cut-out. CIHP_PGN's mirror holds only
 * the 5 photos already in held-out/. Written to <out>/fresh/fresh-groups/.
 */
const FRESH = { count: 16, minPeople: 2, minShare: 0.01, leftOut: [52, 110, 186] };

/**
 * A second unseen set (people15, 2026-12-03), fixed before any engine ran on it and run once, with the final rule: the
 * repository's photos that neither the lists above nor FRESH use (nor the three left out on sight), in file-number order,
 * whose reference mask has at least one piece (8-connected, alpha ≥ 128) of at least `minShare` of the frame: a person
 * or people who touch (every unused photo with two pieces apart is already in FRESH), the first `count` of them. Chosen
 * from the reference masks alone, never from a cut-out. Written to <out>/unseen/unseen-single/.
 */
const UNSEEN = { count: 24, minPeople: 1, minShare: 0.01 };

/**
 * A third unseen set (people16, 2026-12-03), fixed before any engine ran on it and run once at the end of the round, with
 * the rule before and the final rule: by UNSEEN's rule (at least one piece of at least `minShare` in the reference, file-number
 * order), the next `count` photos that neither the lists above, FRESH nor UNSEEN use. Chosen from the reference masks alone,
 * never from a cut-out. Written to <out>/unseen3/unseen-next/.
 */
const UNSEEN3 = { count: 30, minPeople: 1, minShare: 0.01 };

/**
 * A fourth and a fifth unseen set (2026-12-03, eighteenth session), fixed before any engine ran on them, by UNSEEN's rule:
 * the next `count` photos (file-number order) that neither the lists above, FRESH, UNSEEN nor UNSEEN3 use, then the next
 * `count` after those. The fourth is a round's held-out check, run once after its keep rule is committed; the fifth is the
 * lead's, run once at the end of the stop on everything merged. Written to <out>/unseen4/unseen-fourth/ and
 * <out>/unseen5/unseen-fifth/.
 */
const UNSEEN4 = { count: 30, minPeople: 1, minShare: 0.01 };
const UNSEEN5 = { count: 30, minPeople: 1, minShare: 0.01 };
/** A sixth (2026-12-03, the same session, after UNSEEN5 was run): the next `count` by the same rule, for a candidate built after it. */
const UNSEEN6 = { count: 30, minPeople: 1, minShare: 0.01 };
/**
 * A seventh and an eighth (2026-12-03, nineteenth session), fixed before any engine ran on them, by the same rule: the next
 * `count` after UNSEEN6, then every photo left that qualifies. The seventh is a round's held-out check (each candidate's keep
 * rule committed before it is run); the eighth is the lead's last check of the stop, run once on everything merged. Written to
 * <out>/unseen7/unseen-seventh/ and <out>/unseen8/unseen-eighth/.
 */
const UNSEEN7 = { count: 28, minPeople: 1, minShare: 0.01 };
const UNSEEN8 = { count: 1000, minPeople: 1, minShare: 0.01 };

/** JizhiziLi/P3M (MIT): the demo photos with P3M-Net's mattes, and three samples with theirs. */
const P3M_PAIRS = [
  { images: "demo/imgs/original", alphas: "demo/imgs/alpha" },
  { images: "samples/original", alphas: "samples/result_alpha" },
];

/** Engineering-Course/CIHP_PGN (research use): its five sample photos of CIHP with human-made part labels. */
const CIHP = { images: "datasets/CIHP/images", labels: "datasets/CIHP/labels" };

function gitDir(sources: string, repo: string): string {
  const base = path.join(sources, repo.replace("/", "+"));
  for (const dir of [path.join(base, "repo"), path.join(base, ".git"), base]) {
    if (fs.existsSync(path.join(dir, "HEAD"))) return dir;
  }
  throw new Error(`${repo}: no git directory under ${base} (fetch github:${repo} first)`);
}

const git = (dir: string, args: string[]) => execFileSync("git", ["--git-dir", dir, ...args], { maxBuffer: 2 ** 28 });
const list = (dir: string, folder: string) => git(dir, ["ls-tree", "--name-only", "HEAD", `${folder}/`]).toString().split("\n").filter(Boolean);
const show = (dir: string, file: string) => git(dir, ["show", `HEAD:${file}`]);

function put(folder: string, name: string, data: Buffer) {
  fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(path.join(folder, name), data);
}

/** Any non-zero label (a body part) is the person: the alpha is 255 there, 0 elsewhere. */
async function personOfLabels(labels: Buffer): Promise<Buffer> {
  const { data, info } = await sharp(labels).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  const alpha = Buffer.alloc(data.length);
  for (let i = 0; i < data.length; i++) alpha[i] = data[i]! > 0 ? 255 : 0;
  return sharp(alpha, { raw: { width: info.width, height: info.height, channels: 1 } }).png().toBuffer();
}

/** Human-Segmentation-Dataset photos by category list into <folder>/<category>/{image,alpha}/v<id>: how many. */
function writeLists(vikram: string, lists: Record<string, number[]>, folder: string): number {
  let count = 0;
  for (const [category, ids] of Object.entries(lists)) {
    for (const id of ids) {
      put(path.join(folder, category, "image"), `v${id}.jpg`, show(vikram, `Training_Images/${id}.jpg`));
      put(path.join(folder, category, "alpha"), `v${id}.png`, show(vikram, `Ground_Truth/${id}.png`));
      count++;
    }
  }
  return count;
}

/** How many pieces of at least `minShare` of the frame a reference mask has (FRESH's rule). */
async function piecesOf(png: Buffer, minShare: number): Promise<number> {
  const { data, info } = await sharp(png).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  const { sizes } = components(info.width, info.height, (i) => data[i]! >= 128, true);
  return sizes.filter((s, l) => l > 0 && s >= minShare * info.width * info.height).length;
}

/** The first `count` ids, by number, that no list above nor `also` uses, with at least `minPeople` pieces of `minShare` in the reference. */
async function unusedIds(vikram: string, pick: { count: number; minPeople: number; minShare: number }, also: number[] = []): Promise<number[]> {
  const used = new Set([...Object.values(LISTS), ...Object.values(HELD_OUT)].flat().concat(FRESH.leftOut, also));
  const ids = list(vikram, "Training_Images")
    .map((f) => /^Training_Images\/(\d+)\.jpg$/.exec(f)?.[1])
    .filter((x): x is string => !!x)
    .map(Number)
    .filter((id) => !used.has(id))
    .sort((a, b) => a - b);
  const out: number[] = [];
  for (const id of ids) {
    if (out.length >= pick.count) break;
    if ((await piecesOf(show(vikram, `Ground_Truth/${id}.png`), pick.minShare)) >= pick.minPeople) out.push(id);
  }
  return out;
}

async function main() {
  const sources = process.env.PEOPLE_SOURCES;
  const out = process.argv[2];
  if (!sources || !out) {
    console.log("usage: PEOPLE_SOURCES=<folder of mirrors> npx tsx bench/people-set.ts <output folder>");
    process.exit(2);
  }
  const vikram = gitDir(sources, "VikramShenoy97/Human-Segmentation-Dataset");
  const people = writeLists(vikram, LISTS, path.join(out, "people"));
  const heldOut = writeLists(vikram, HELD_OUT, path.join(out, "held-out"));
  const fresh = await unusedIds(vikram, FRESH);
  writeLists(vikram, { "fresh-groups": fresh }, path.join(out, "fresh"));
  const unseen = await unusedIds(vikram, UNSEEN, fresh);
  writeLists(vikram, { "unseen-single": unseen }, path.join(out, "unseen"));
  const unseen3 = await unusedIds(vikram, UNSEEN3, [...fresh, ...unseen]);
  writeLists(vikram, { "unseen-next": unseen3 }, path.join(out, "unseen3"));
  const unseen4 = await unusedIds(vikram, UNSEEN4, [...fresh, ...unseen, ...unseen3]);
  writeLists(vikram, { "unseen-fourth": unseen4 }, path.join(out, "unseen4"));
  const unseen5 = await unusedIds(vikram, UNSEEN5, [...fresh, ...unseen, ...unseen3, ...unseen4]);
  writeLists(vikram, { "unseen-fifth": unseen5 }, path.join(out, "unseen5"));
  const unseen6 = await unusedIds(vikram, UNSEEN6, [...fresh, ...unseen, ...unseen3, ...unseen4, ...unseen5]);
  writeLists(vikram, { "unseen-sixth": unseen6 }, path.join(out, "unseen6"));
  const before7 = [...fresh, ...unseen, ...unseen3, ...unseen4, ...unseen5, ...unseen6];
  const unseen7 = await unusedIds(vikram, UNSEEN7, before7);
  writeLists(vikram, { "unseen-seventh": unseen7 }, path.join(out, "unseen7"));
  const unseen8 = await unusedIds(vikram, UNSEEN8, [...before7, ...unseen7]);
  writeLists(vikram, { "unseen-eighth": unseen8 }, path.join(out, "unseen8"));
  const p3m = gitDir(sources, "JizhiziLi/P3M");
  let portraits = 0;
  for (const pair of P3M_PAIRS) {
    for (const file of list(p3m, pair.images).filter((f) => f.endsWith(".jpg"))) {
      const name = path.basename(file, ".jpg");
      put(path.join(out, "p3m", "image"), `${name}.jpg`, show(p3m, file));
      put(path.join(out, "p3m", "alpha"), `${name}.png`, show(p3m, `${pair.alphas}/${name}.png`));
      portraits++;
    }
  }
  const cihp = gitDir(sources, "Engineering-Course/CIHP_PGN");
  let crowds = 0;
  for (const file of list(cihp, CIHP.images).filter((f) => f.endsWith(".jpg"))) {
    const name = path.basename(file, ".jpg");
    const alpha = await personOfLabels(show(cihp, `${CIHP.labels}/${name}.png`));
    for (const folder of [path.join(out, "cihp", "group-cihp"), path.join(out, "held-out", "group-cihp")]) {
      put(path.join(folder, "image"), `c${name}.jpg`, show(cihp, file));
      put(path.join(folder, "alpha"), `c${name}.png`, alpha);
    }
    crowds++;
  }
  console.log(`${out}/people: ${people} photos; ${out}/held-out: ${heldOut} + CIHP's ${crowds}; ${out}/p3m: ${portraits}; ${out}/cihp: ${crowds}; ${out}/fresh: ${fresh.length} (v${fresh.join(", v")}); ${out}/unseen: ${unseen.length} (v${unseen.join(", v")}); ${out}/unseen3: ${unseen3.length} (v${unseen3.join(", v")}); ${out}/unseen4: ${unseen4.length} (v${unseen4.join(", v")}); ${out}/unseen5: ${unseen5.length} (v${unseen5.join(", v")}); ${out}/unseen6: ${unseen6.length} (v${unseen6.join(", v")}); ${out}/unseen7: ${unseen7.length} (v${unseen7.join(", v")}); ${out}/unseen8: ${unseen8.length} (v${unseen8.join(", v")})`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
