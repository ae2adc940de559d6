// AI fix engines against the bare tools, measured in the same run:
// - raster, a 24-megapixel photo: each fix through applyRasterFixes (what a job
//   runs) beside sharp doing the bare operation;
// - PDF prepress on a 20-page image-heavy PDF: runPdfPrepress (what a job runs)
//   beside the bare Ghostscript command line, system gs and the WebAssembly build,
//   with the peak memory of the largest process (/usr/bin/time -f %M).
// `npx tsx bench/fix-bench.ts` prints tables and a JSON line; bench/run.ts includes it.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { applyRasterFixes, PRINT_SHARPEN, type RasterFixType } from "@/lib/engines/imaging/fixes/raster-fixes";
import { pressProfilePath } from "@/lib/engines/imaging/fixes/press-profile";
import { PREPRESS_FLAGS, runPdfPrepress } from "@/lib/engines/pdf/fixes/pdf-prepress";
import { imageHeavyPdf } from "../test/fixtures/preflight/pdf-fixtures";

const W = 6000;
const H = 4000;

async function photo24mp(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#2a6fdb"/><stop offset="1" stop-color="#f2c14e"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/><circle cx="2000" cy="1800" r="900" fill="#c0392b"/></svg>`;
  const noise = await sharp({ create: { width: W, height: H, channels: 3, background: "#808080", noise: { type: "gaussian", mean: 128, sigma: 20 } } }).raw().toBuffer();
  return sharp(Buffer.from(svg))
    .composite([{ input: noise, raw: { width: W, height: H, channels: 3 }, blend: "soft-light" }])
    .withIccProfile("srgb")
    .jpeg({ quality: 90 })
    .toBuffer();
}

async function time<T>(fn: () => Promise<T>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

async function rasterBench() {
  const input = await photo24mp();
  const canvas = { widthIn: 20, heightIn: 13.333 };
  const base = { targetDpi: 300, canvas, bleedMm: 3, format: "jpeg" as const };
  const bare: Record<string, () => Promise<unknown>> = {
    upscale_resolution_2x: () => sharp(input, { limitInputPixels: false }).resize(W * 2, H * 2, { kernel: "lanczos3" }).jpeg({ quality: 95 }).toBuffer(),
    sharpen_edges: () => sharp(input).sharpen(PRINT_SHARPEN).jpeg({ quality: 95 }).toBuffer(),
    remove_transparency: () => sharp(input).flatten({ background: "#fff" }).jpeg({ quality: 95 }).toBuffer(),
    add_bleed: () => sharp(input).extend({ top: 36, bottom: 36, left: 36, right: 36, extendWith: "mirror" }).jpeg({ quality: 95 }).toBuffer(),
    resize_to_spec: () => sharp(input).resize(6071, 4071, { kernel: "lanczos3", fit: "cover" }).jpeg({ quality: 95 }).toBuffer(),
    convert_color_mode: () => sharp(input).withIccProfile(pressProfilePath()).jpeg({ quality: 95 }).toBuffer(),
  };
  const rows = [];
  for (const [fix, bareOp] of Object.entries(bare)) {
    await bareOp(); // warm
    const bareMs = await time(bareOp);
    const oursMs = await time(() => applyRasterFixes(input, { ...base, fixTypes: [fix as RasterFixType] }));
    rows.push({ fix, "sharp bare ms": Math.round(bareMs), "our fix ms": Math.round(oursMs), "ours / bare": Number((oursMs / bareMs).toFixed(2)) });
  }
  return rows;
}

function hasGs(): boolean {
  return spawnSync("gs", ["--version"]).status === 0;
}

/** Runs a command under /usr/bin/time; its wall time and the largest process's peak RSS. */
function measured(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env) {
  const t = performance.now();
  const r = spawnSync("/usr/bin/time", ["-f", "%M", cmd, ...args], { encoding: "utf8", env, maxBuffer: 64 * 2 ** 20 });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`${cmd} failed: ${r.stderr.slice(-2000)}`);
  const kb = Number(r.stderr.trim().split("\n").pop());
  return { ms, peakMb: Math.round(kb / 1024), stdout: r.stdout };
}

async function pdfBench() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fix-bench-"));
  try {
    const pdf = await imageHeavyPdf(20, 4);
    fs.writeFileSync(path.join(dir, "in.pdf"), pdf);
    const rows = [];
    const flags = [...PREPRESS_FLAGS, "-dBATCH", "-dNOPAUSE", "-dSAFER", "-dQUIET"];
    for (const engine of ["system", "wasm"] as const) {
      if (engine === "system" && !hasGs()) {
        rows.push({ engine, note: "no system gs installed: skipped" });
        continue;
      }
      const bare =
        engine === "system"
          ? measured("gs", [...flags, `-sOutputFile=${path.join(dir, "bare.pdf")}`, path.join(dir, "in.pdf")])
          : measured(process.execPath, [path.join("lib", "engines", "pdf", "ghostscript", "gs-wasm-child.cjs"), dir, JSON.stringify([...flags, "-sOutputFile=/work/bare.pdf", "/work/in.pdf"])]);
      const ours = measured("npx", ["tsx", "bench/fix-bench.ts", "prepress-once", path.join(dir, "in.pdf")], { ...process.env, GHOSTSCRIPT_ENGINE: engine });
      const row = {
        engine: `gs-${engine}`,
        "bare gs s": Number((bare.ms / 1000).toFixed(2)),
        "bare peak MB": bare.peakMb,
        "our job's prepress s": Number((JSON.parse(ours.stdout.trim().split("\n").pop()!).ms / 1000).toFixed(2)),
        "our peak MB": ours.peakMb,
        "ours / bare": Number((JSON.parse(ours.stdout.trim().split("\n").pop()!).ms / bare.ms).toFixed(2)),
      };
      // Printed as it comes: the WebAssembly run takes minutes on a loaded machine.
      console.log(`  ${JSON.stringify(row)}`);
      rows.push(row);
    }
    return { pages: 20, inputMb: Number((pdf.length / 2 ** 20).toFixed(1)), rows };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  if (process.argv[2] === "prepress-once") {
    const bytes = fs.readFileSync(process.argv[3]!);
    const r = await runPdfPrepress(bytes, { flattenPages: [] });
    console.log(JSON.stringify({ ms: r.ms, engine: r.engine }));
    return;
  }
  const machine = `${os.cpus().length} x ${os.cpus()[0]?.model ?? "cpu"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, load ${os.loadavg()[0]!.toFixed(1)}`;
  console.log(`machine: ${machine}\nraster, ${W} x ${H} (24 MP) JPEG, each fix vs sharp's bare operation`);
  const only = process.argv[2];
  const raster = only === "pdf" ? [] : await rasterBench();
  console.table(raster);
  console.log("PDF prepress, 20 pages x 4 images (1800 x 1200 each, placed at ~500 ppi)");
  const pdf = await pdfBench();
  console.table(pdf.rows);
  console.log(JSON.stringify({ machine, raster, pdf }));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
