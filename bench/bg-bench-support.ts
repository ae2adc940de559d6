// Shared by the benchmarks: the two background-removal ones measure the same images the
// same way (model alone, bg-model-bench, versus the whole service, bg-remove-bench); the
// face benchmarks scale their photos with atMegapixels; all report memory and percentiles alike.
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";

const SOURCE = path.resolve("lib/engines/ml/background-removal/fixtures/coffee.png");

/** The coffee photo resized to about 1 MP (1224 x 816) and 12 MP (4243 x 2829), as JPEG like most uploads. */
export async function benchImages() {
  const src = fs.readFileSync(SOURCE);
  const make = (w: number, h: number) => sharp(src).resize(w, h, { kernel: "lanczos3" }).jpeg({ quality: 92 }).toBuffer();
  return { "1 MP": await make(1224, 816), "12 MP": await make(4243, 2829) };
}

/** A photo file scaled to about `mp` megapixels (Lanczos), as JPEG quality 90: what a camera's small JPEG or a phone export looks like. */
export async function atMegapixels(file: string, mp: number): Promise<Buffer> {
  const { width, height } = await sharp(file).metadata();
  const k = Math.sqrt((mp * 1e6) / (width! * height!));
  return sharp(file).resize(Math.round(width! * k), Math.round(height! * k), { kernel: "lanczos3" }).jpeg({ quality: 90 }).toBuffer();
}

/** The process's peak resident memory (VmHWM), in MB. */
export const peakRssMb = () => {
  const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync("/proc/self/status", "utf8"));
  return m ? Math.round(Number(m[1]) / 1024) : Math.round(process.memoryUsage().rss / 2 ** 20);
};

/** Nearest-rank percentile (p in 0..100), rounded to a whole millisecond. */
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!);
};
export const stats = (xs: number[]) => ({ n: xs.length, p50: pct(xs, 50), p95: pct(xs, 95) });
