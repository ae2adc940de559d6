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
// its own folder so that "all 41" stays the 41).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";

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

async function main() {
  const sources = process.env.PEOPLE_SOURCES;
  const out = process.argv[2];
  if (!sources || !out) {
    console.log("usage: PEOPLE_SOURCES=<folder of mirrors> npx tsx bench/people-set.ts <output folder>");
    process.exit(2);
  }
  const vikram = gitDir(sources, "VikramShenoy97/Human-Segmentation-Dataset");
  let people = 0;
  for (const [category, ids] of Object.entries(LISTS)) {
    for (const id of ids) {
      put(path.join(out, "people", category, "image"), `v${id}.jpg`, show(vikram, `Training_Images/${id}.jpg`));
      put(path.join(out, "people", category, "alpha"), `v${id}.png`, show(vikram, `Ground_Truth/${id}.png`));
      people++;
    }
  }
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
    put(path.join(out, "cihp", "group-cihp", "image"), `c${name}.jpg`, show(cihp, file));
    put(path.join(out, "cihp", "group-cihp", "alpha"), `c${name}.png`, await personOfLabels(show(cihp, `${CIHP.labels}/${name}.png`)));
    crowds++;
  }
  console.log(`${out}/people: ${people} photos; ${out}/p3m: ${portraits}; ${out}/cihp: ${crowds}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
