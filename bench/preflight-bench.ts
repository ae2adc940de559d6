// Preflight benchmark: `npx tsx bench/preflight-bench.ts`
//
// Check time and peak memory of the preflight analysis for a 20-page
// image-heavy PDF and a 50-megapixel TIFF, beside the standard tools on the
// same files in the same run: `pdfimages -list` (poppler-utils) and `identify`
// (ImageMagick). Each measurement runs in its own process so its peak RSS is
// its own (GNU time's %M for the tools, getrusage maxRSS for ours), and is the
// median of three runs. Also cross-checks our effective ppi against pdfimages'.
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";

const RUNS = 3;
const MODE = process.argv[2];

/** Child mode: load the engine, run one analysis of `file`, print timing and peak RSS as JSON. */
async function runOne(file: string, fileType: "pdf" | "tiff") {
  const { analyzeFile } = await import("../lib/services/preflight/analyze-file");
  // The idle footprint (node, tsx, sharp, pdf-lib) before the file is even read.
  const rssBeforeKb = Math.round(process.memoryUsage().rss / 1024);
  const bytes = fs.readFileSync(file);
  const started = performance.now();
  const result = await analyzeFile(bytes, fileType, { requiredDpi: 300, requiredDpiSource: "default", canvas: fileType === "tiff" ? { widthIn: 28.87, heightIn: 19.25 } : undefined }, { maxPixels: 268_402_689, maxPdfPages: 5000 });
  const ms = performance.now() - started;
  console.log(JSON.stringify({ ms, maxRssKb: process.resourceUsage().maxRSS, rssBeforeKb, status: result.status, issues: result.issues.length }));
}

type Measure = { seconds: number; peakMb: number; baseMb?: number };

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** A command under GNU time: wall seconds and max RSS. */
function timeTool(cmd: string, args: string[]): Measure & { stdout: string } {
  const res = spawnSync("/usr/bin/time", ["-f", "%e %M", cmd, ...args], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (res.status !== 0) throw new Error(`${cmd} failed: ${res.stderr}`);
  const [seconds, kb] = res.stderr.trim().split("\n").pop()!.split(" ").map(Number);
  return { seconds: seconds!, peakMb: kb! / 1024, stdout: res.stdout };
}

function ours(file: string, type: "pdf" | "tiff"): Measure & { baseMb: number } {
  const out = execFileSync(process.execPath, ["--import", "tsx", __filename, "--one", file, type], { encoding: "utf8", maxBuffer: 16 * 1024 * 1024 });
  const r = JSON.parse(out.trim().split("\n").pop()!);
  return { seconds: r.ms / 1000, peakMb: r.maxRssKb / 1024, baseMb: r.rssBeforeKb / 1024 };
}

function repeat<T extends Measure>(fn: () => T): T {
  const runs = Array.from({ length: RUNS }, fn);
  const s = median(runs.map((r) => r.seconds));
  return { ...runs.find((r) => r.seconds === s)!, peakMb: median(runs.map((r) => r.peakMb)), baseMb: runs[0]!.baseMb === undefined ? undefined : median(runs.map((r) => r.baseMb!)) };
}

async function fixtures(dir: string) {
  const { imageHeavyPdf } = await import("../test/fixtures/preflight/pdf-fixtures");
  const pdf = path.join(dir, "catalogue-20p.pdf");
  fs.writeFileSync(pdf, await imageHeavyPdf(20, 4));
  // 8,660 x 5,774 = 50.0 megapixels: a gradient with grain, deflate-compressed like a photo lab's TIFF.
  const width = 8660;
  const height = 5774;
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const grain = (x * 7 + y * 13) % 9;
      raw[i] = (x * 255) / width + grain;
      raw[i + 1] = (y * 255) / height + grain;
      raw[i + 2] = 128 + grain;
    }
  }
  const tiff = path.join(dir, "photo-50mp.tif");
  await sharp(raw, { raw: { width, height, channels: 3 } }).withIccProfile("srgb").tiff({ compression: "deflate", predictor: "horizontal" }).toFile(tiff);
  return { pdf, tiff };
}

/** Our per-image effective ppi against pdfimages' x-ppi/y-ppi for the same images. */
async function ppiAgreement(pdf: string, listing: string) {
  const { analyzePdf } = await import("../lib/engines/pdf/analyze-pdf");
  const a = await analyzePdf(new Uint8Array(fs.readFileSync(pdf)), { maxPages: 5000 });
  if (a.kind !== "ok") throw new Error(a.kind);
  const oursPpi = a.pages.flatMap((p) => p.images.map((i) => ({ page: p.page, x: i.ppiX, y: i.ppiY })));
  const theirs = listing
    .split("\n")
    .slice(2)
    .filter((l) => l.trim())
    .map((l) => l.trim().split(/\s+/))
    .filter((c) => c[2] === "image")
    .map((c) => ({ page: Number(c[0]), x: Number(c[12]), y: Number(c[13]) }));
  let maxDiff = 0;
  theirs.forEach((t, i) => {
    const o = oursPpi[i]!;
    maxDiff = Math.max(maxDiff, Math.abs(Math.round(o.x) - t.x), Math.abs(Math.round(o.y) - t.y));
  });
  return { images: theirs.length, ours: oursPpi.length, maxDiff };
}

async function main() {
  const machine = `${os.cpus().length} x ${os.cpus()[0]?.model ?? "cpu"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, load ${os.loadavg()[0]!.toFixed(1)}`;
  console.log(`machine: ${machine}`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "preflight-bench-"));
  try {
    const { pdf, tiff } = await fixtures(dir);
    const size = (f: string) => `${(fs.statSync(f).size / 2 ** 20).toFixed(1)} MB`;
    console.log(`files: 20-page PDF with 80 photos (${size(pdf)}), 50-megapixel TIFF (${size(tiff)})\n`);

    const rows: { file: string; tool: string; m: Measure; base?: number }[] = [];
    const pdfimages = repeat(() => timeTool("pdfimages", ["-list", pdf]));
    rows.push({ file: "20-page PDF", tool: "pdfimages -list (baseline)", m: pdfimages });
    const oursPdf = repeat(() => ours(pdf, "pdf"));
    rows.push({ file: "20-page PDF", tool: "preflight check (ours)", m: oursPdf, base: pdfimages.seconds });
    const identify = repeat(() => timeTool("identify", [tiff]));
    rows.push({ file: "50 MP TIFF", tool: "identify (baseline)", m: identify });
    const identifyV = repeat(() => timeTool("identify", ["-verbose", tiff]));
    rows.push({ file: "50 MP TIFF", tool: "identify -verbose (full decode + stats)", m: identifyV, base: identify.seconds });
    const oursTiff = repeat(() => ours(tiff, "tiff"));
    rows.push({ file: "50 MP TIFF", tool: "preflight check (ours)", m: oursTiff, base: identify.seconds });

    console.log("| file | tool | time (s) | × baseline | peak RSS (MB) | peak above idle (MB) |");
    console.log("|---|---|---|---|---|---|");
    for (const r of rows) {
      const ratio = r.base ? `${(r.m.seconds / r.base).toFixed(1)}×` : "1.0×";
      const above = r.m.baseMb === undefined ? "" : (r.m.peakMb - r.m.baseMb).toFixed(0);
      console.log(`| ${r.file} | ${r.tool} | ${r.m.seconds.toFixed(2)} | ${ratio} | ${r.m.peakMb.toFixed(0)} | ${above} |`);
    }
    console.log(`\nour process idle (node + tsx + sharp + pdf-lib loaded, file not read yet): ${oursPdf.baseMb!.toFixed(0)} MB RSS`);
    const agreement = await ppiAgreement(pdf, pdfimages.stdout);
    console.log(`effective ppi vs pdfimages: ${agreement.images} images listed by pdfimages, ${agreement.ours} placements found by us, largest difference ${agreement.maxDiff} ppi`);
    fs.mkdirSync(path.join(__dirname, "results"), { recursive: true });
    fs.writeFileSync(path.join(__dirname, "results", "preflight.json"), JSON.stringify({ machine, rows, agreement }, null, 2));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (MODE === "--one") {
  void runOne(process.argv[3]!, process.argv[4] as "pdf" | "tiff").then(() => process.exit(0));
} else {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
