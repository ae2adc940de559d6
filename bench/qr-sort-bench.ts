// QR sorting on a picture day of camera-size frames: 400 frames of 12 MP (4000 × 3000,
// JPEG quality 90) read by the card reader as the sort's job reads them (one per
// reader thread, CARD_READER_THREADS, 2 by default), then filed by the studio's
// rules (assignRuns). One frame in four holds a card 5–8% of the width, turned
// and blurred; the rest are portraits without a card, the case that decides the
// time. The frames cycle through D distinct ones (default 20) so that 400 of
// them do not sit in memory as JPEGs; every read decodes its frame afresh.
// Beside it, in the same run: the baseline (decoding the same frames with sharp
// alone, what any reader must pay) and the reader's previous strategy (first
// pass at 2,400 px with ZXing's downscaled retry, then a full-detail read of
// every frame without a card), each on the D distinct frames in this thread.
// Reports wall time, CPU time and the peak memory of the process (the reader's
// threads included). Run: `npx tsx bench/qr-sort-bench.ts [frames=400] [distinct=20]`.
import os from "node:os";
import path from "node:path";
import QRCode from "qrcode";
import sharp from "sharp";
import { readBarcodes } from "zxing-wasm/reader";
import { cardReaderThreads, readCards, shutDownCardReader } from "@/lib/engines/imaging/card-reader/read-cards";
import { readFrame } from "@/lib/engines/imaging/card-reader/read-frame";
import { zxingReader } from "@/lib/engines/imaging/card-reader/zxing-module";
import { assignRuns } from "@/lib/services/qr-sort/assign-runs";
import { qrPayload } from "@/lib/services/qr/payload";

const N = Number(process.argv[2] ?? 400);
const D = Math.min(N, Number(process.argv[3] ?? 20));
const WIDTH = 4000;
const HEIGHT = 3000;
const TARGET_400_MS = 120_000;
const PHOTOS = ["lib/engines/ml/background-removal/fixtures/astronaut.png", "test/fixtures/faces/obama.jpg", "lib/engines/ml/background-removal/fixtures/chelsea.png", "test/fixtures/faces/two_people.jpg"];

async function frame(i: number): Promise<{ bytes: Buffer; card: string | null }> {
  const base = sharp(path.resolve(PHOTOS[i % PHOTOS.length]!)).resize(WIDTH, HEIGHT, { fit: "cover" });
  if (i % 4 !== 0) return { bytes: await base.jpeg({ quality: 90 }).toBuffer(), card: null };
  const text = qrPayload("BENCH-DAY", `S${100000 + i}`);
  const px = Math.round(WIDTH * (0.05 + (i % 3) * 0.015));
  const qr = await QRCode.toBuffer(text, { errorCorrectionLevel: "M", margin: 4, width: Math.round(px * 0.75) });
  const card = await sharp({ create: { width: px, height: Math.round(px * 1.33), channels: 3, background: "#fff" } })
    .composite([{ input: qr, left: Math.round(px * 0.125), top: Math.round(px * 0.1) }])
    .png()
    .toBuffer();
  const turned = await sharp(card).rotate(-12 + (i % 5) * 6, { background: "#eee" }).png().toBuffer();
  const bytes = await sharp(await base.png().toBuffer()).composite([{ input: turned, left: 2300, top: 1200 }]).blur(0.8 + (i % 3) * 0.4).jpeg({ quality: i % 8 === 0 ? 70 : 90 }).toBuffer();
  return { bytes, card: text };
}

/** The reader's strategy before this bench's change, for the ratio: 2,400 px with ZXing's downscaled retry, then full detail for every frame without a code. */
async function previousStrategy(bytes: Buffer): Promise<string[]> {
  const opts = { formats: ["QRCode" as const], tryHarder: true, tryRotate: false, tryInvert: false, tryDownscale: true, maxNumberOfSymbols: 4, textMode: "Plain" as const };
  const image = sharp(bytes).rotate();
  const at = async (edge: number) => {
    const { data, info } = await image.clone().resize(edge, edge, { fit: "inside", withoutEnlargement: true }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    const found = await readBarcodes({ data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height } as unknown as ImageData, opts);
    return found.filter((r) => r.isValid && r.text).map((r) => r.text);
  };
  const first = await at(2400);
  return first.length ? first : at(4096);
}

const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;

async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; cpu: number; value: T }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const value = await run();
  return { ms: performance.now() - started, cpu: cpuMs(process.cpuUsage(cpu)), value };
}

async function main() {
  // No libvips operation cache: in a sort every frame is a new file, and here the same
  // frames are decoded by several strategies in turn.
  sharp.cache(false);
  console.log(`making ${D} distinct frames of ${WIDTH} x ${HEIGHT}, ${N} reads …`);
  const frames: { bytes: Buffer; card: string | null }[] = [];
  for (let i = 0; i < D; i++) frames.push(await frame(i));
  await zxingReader();

  // Same run, same distinct frames, this thread: what decoding costs, and the two strategies.
  const baseline = await timed(async () => {
    for (const f of frames) await sharp(f.bytes).rotate().raw().toBuffer();
  });
  const previous = await timed(async () => {
    let read = 0;
    for (const f of frames) {
      const codes = await previousStrategy(f.bytes);
      if (f.card && codes.includes(f.card)) read++;
    }
    return read;
  });
  const limits = { wholeEdge: 2000, tileEdge: 4096 };
  const current = await timed(async () => {
    let read = 0;
    for (const f of frames) {
      const { codes } = await readFrame(f.bytes, limits);
      if (f.card && codes.includes(f.card)) read++;
    }
    return read;
  });

  // The sort: N frames through the reader's threads, then the rules.
  const threads = cardReaderThreads();
  await Promise.all(Array.from({ length: threads }, () => readCards(frames[1]!.bytes))); // threads started, wasm compiled
  const rssBefore = process.memoryUsage().rss;
  const readings: { codes: string[] }[] = new Array(N);
  const sort = await timed(async () => {
    let next = 0;
    const lane = async () => {
      for (let i = next++; i < N; i = next++) readings[i] = await readCards(frames[i % D]!.bytes);
    };
    await Promise.all(Array.from({ length: threads }, lane));
    return assignRuns(
      readings.map((r, i) => ({ fileId: i + 1, filename: `IMG_${String(i).padStart(4, "0")}.jpg`, capturedAt: null, codes: r.codes, unreadable: false })),
      [],
    );
  });
  await shutDownCardReader();
  const cards = readings.filter((_, i) => frames[i % D]!.card).length;
  const read = readings.filter((r, i) => frames[i % D]!.card && r.codes.includes(frames[i % D]!.card!)).length;
  const falseCards = readings.filter((r, i) => !frames[i % D]!.card && r.codes.length > 0).length;
  const distinctCards = frames.filter((f) => f.card).length;
  const perFrame = (x: { ms: number }) => Math.round(x.ms / D);
  console.log(
    JSON.stringify(
      {
        machine: `${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(1)} at the end, Node ${process.version}`,
        frames: N,
        distinct_frames: D,
        size: `${WIDTH}x${HEIGHT}`,
        this_thread_ms_per_frame: {
          baseline_sharp_decode: perFrame(baseline),
          previous_strategy: perFrame(previous),
          current_strategy: perFrame(current),
          ratio_previous_vs_decode: +(previous.ms / baseline.ms).toFixed(2),
          ratio_current_vs_decode: +(current.ms / baseline.ms).toFixed(2),
          cards_read_previous: `${previous.value}/${distinctCards}`,
          cards_read_current: `${current.value}/${distinctCards}`,
        },
        sort: {
          threads,
          wall_s: +(sort.ms / 1000).toFixed(1),
          cpu_s: +(sort.cpu / 1000).toFixed(1),
          ms_per_frame: Math.round(sort.ms / N),
          projected_400_frames_s: Math.round(((sort.ms / N) * 400) / 1000),
          target_400_frames_s: TARGET_400_MS / 1000,
          cards_read: `${read}/${cards}`,
          false_cards: falseCards,
          runs_filed: new Set(sort.value.outcomes.map((o) => o.studentId)).size,
        },
        peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
        rss_before_sort_mb: Math.round(rssBefore / 1024 / 1024),
      },
      null,
      2,
    ),
  );
}

void main();
