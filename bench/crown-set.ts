// Builds the crown-edge bench's evaluation sets (issue 37) from fetched public repositories: each
// photo read from its mirror (a git directory, no work tree), scaled to `scale` px on its long side
// (JPEG 92), written to <out-dir>/<set>/<name>.jpg with <out-dir>/<set>/marks.json ({ hair: { name: y } },
// what bench/crown-edge-bench.ts reads). The photos are never committed; their hair tops (our marks,
// bench/data/crown-marks.json) are.
//
//   CROWN_SOURCES=/work/.mirror npx tsx bench/crown-set.ts /work/eval-crop10
//
// CROWN_SOURCES: the folder `fetch` brings repositories to (owner+name/repo inside), or several
// separated by ":". Fetch each repository named in crown-marks.json's `sources` first. Then, e.g.:
//   CROWN_EDGE_SET=/work/eval-crop10/deepface npx tsx bench/crown-edge-bench.ts
//   CROWN_EDGE_SET=/work/eval-crop10/heldout CROWN_EDGE_FIXTURES=0 npx tsx bench/crown-edge-bench.ts
// `CROWN_SET_PROPOSE=1` also writes, for photos listed without a hair mark (hair: null), the selfie
// matte's crown as a proposal (<set>/proposed.json) and 3× zoomed strips of the head's top with a
// 5 px ruler (<set>/strips/) to check it by eye: how the marks were made.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";

type Mark = { name: string; repo: string; path: string; hair: number | null; note?: string };
type Marks = { scale: number; sources: Record<string, { commit: string; licence: string }>; sets: Record<string, Mark[]> };

const MARKS = path.resolve("bench/data/crown-marks.json");

function mirror(repo: string): string {
  const roots = (process.env.CROWN_SOURCES ?? "").split(":").filter(Boolean);
  const dirs = roots.flatMap((root) => [path.join(root, repo.replace("/", "+"), "repo"), path.join(root, repo.replace("/", "+"))]);
  const found = dirs.find((dir) => fs.existsSync(path.join(dir, "HEAD")) && fs.existsSync(path.join(dir, "objects")));
  if (!found) throw new Error(`${repo}: not under CROWN_SOURCES (${roots.join(":") || "unset"}); fetch github:${repo} first.`);
  return found;
}

function readBlob(repo: string, commit: string, file: string): Buffer {
  const dir = mirror(repo);
  for (const rev of [commit, "HEAD"]) {
    try {
      return execFileSync("git", ["--git-dir", dir, "show", `${rev}:${file}`], { maxBuffer: 64 << 20, stdio: ["ignore", "pipe", "ignore"] });
    } catch {
      // The pinned commit may be missing from a newer snapshot: HEAD next.
    }
  }
  throw new Error(`${repo}: ${file} not in its mirror`);
}

async function propose(dir: string, names: string[]) {
  const { detectInThread } = await import("@/lib/engines/ml/faces/detect-in-thread");
  const out: Record<string, { crown: number | null; source: string; eyes: number } | null> = {};
  fs.mkdirSync(path.join(dir, "strips"), { recursive: true });
  for (const name of names) {
    const file = path.join(dir, name);
    const bytes = fs.readFileSync(file);
    const det = await detectInThread({ bytes, maxPixels: 60e6, detectLongEdge: 1024, minScore: 0.25, crown: true });
    const f = det.faces[0];
    if (!f) {
      out[name] = null;
      continue;
    }
    const crown = f.crownSource === "matte" ? Math.round(f.landmarks.crown.y) : null;
    out[name] = { crown, source: f.crownSource ?? "?", eyes: Math.round(f.landmarks.eyeMid.y) };
    // A strip of the head's top, 3× zoomed: the proposal in red, a ruler every 5 px (every 25 px longer).
    const y0 = Math.max(0, (crown ?? Math.round(f.landmarks.crown.y)) - 40);
    const x0 = Math.max(0, Math.round(f.box.x - f.box.w * 0.4));
    const w = Math.min(det.width - x0, Math.round(f.box.w * 1.8));
    const h = Math.min(det.height - y0, 80);
    const Z = 3;
    const lines: string[] = [];
    for (let y = y0; y < y0 + h; y++) if (y % 5 === 0) lines.push(`<line x1="0" x2="${y % 25 === 0 ? 30 : 12}" y1="${(y - y0) * Z}" y2="${(y - y0) * Z}" stroke="yellow" stroke-width="1"/>${y % 25 === 0 ? `<text x="32" y="${(y - y0) * Z + 4}" fill="yellow" font-size="12">${y}</text>` : ""}`);
    if (crown !== null) lines.push(`<line x1="40" x2="${w * Z}" y1="${(crown - y0) * Z}" y2="${(crown - y0) * Z}" stroke="red" stroke-width="1" stroke-dasharray="6 6"/>`);
    const svg = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${w * Z}" height="${h * Z}">${lines.join("")}</svg>`);
    await sharp(file).extract({ left: x0, top: y0, width: w, height: h }).resize(w * Z, h * Z, { kernel: "nearest" }).composite([{ input: svg }]).png().toFile(path.join(dir, "strips", name.replace(/\.\w+$/, ".png")));
  }
  fs.writeFileSync(path.join(dir, "proposed.json"), JSON.stringify(out, null, 1));
  console.log(`${dir}: ${names.length} proposals in proposed.json, strips/`);
}

async function main() {
  const outDir = process.argv[2];
  if (!outDir || !process.env.CROWN_SOURCES) {
    console.log("usage: CROWN_SOURCES=<fetched mirrors> npx tsx bench/crown-set.ts <out-dir> [set ...]; skipped.");
    return;
  }
  const marks = JSON.parse(fs.readFileSync(MARKS, "utf8")) as Marks;
  const only = process.argv.slice(3);
  for (const [set, list] of Object.entries(marks.sets)) {
    if (only.length && !only.includes(set)) continue;
    const dir = path.join(outDir, set);
    fs.mkdirSync(dir, { recursive: true });
    const hair: Record<string, number> = {};
    const unmarked: string[] = [];
    for (const m of list) {
      const src = marks.sources[m.repo];
      if (!src) throw new Error(`${m.name}: ${m.repo} has no entry in sources`);
      let blob: Buffer;
      try {
        blob = readBlob(m.repo, src.commit, m.path);
      } catch (e) {
        console.log(`${set}/${m.name}: skipped, ${(e as Error).message}`);
        continue;
      }
      const meta = await sharp(blob).metadata();
      const long = Math.max(meta.width!, meta.height!);
      await sharp(blob)
        .rotate()
        .resize(meta.width! >= meta.height! ? { width: marks.scale } : { height: marks.scale }, undefined)
        .flatten({ background: "#ffffff" })
        .jpeg({ quality: 92 })
        .toFile(path.join(dir, m.name));
      if (m.hair === null) unmarked.push(m.name);
      else hair[m.name] = m.hair;
      if (long < marks.scale / 2) console.log(`${set}/${m.name}: ${long} px scaled up to ${marks.scale}`);
    }
    fs.writeFileSync(path.join(dir, "marks.json"), JSON.stringify({ scale: marks.scale, hair }, null, 1));
    console.log(`${dir}: ${Object.keys(hair).length} marked photos${unmarked.length ? `, ${unmarked.length} unmarked` : ""}`);
    if (process.env.CROWN_SET_PROPOSE === "1" && unmarked.length) await propose(dir, unmarked);
  }
}

void main().then(() => process.exit(0));
