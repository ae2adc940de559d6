// QR sorting's card reader on camera-size frames: N frames of 12 MP (4000 × 3000,
// JPEG quality 90), one in four holding a card 5–8% of the width at an angle,
// the rest portraits with no card (the slow case: the whole frame and every
// tile are read before the reader gives up). Reports the time per frame, the
// projection for the 400 frames, the CPU time and the peak memory of
// the process (the worker thread included), beside a baseline measured in the
// same run: decoding the same frames with sharp alone (what any reader must pay).
// Frames are read one at a time, then as the sort's job reads them (one per
// reader thread, CARD_READER_THREADS, 2 by default), which gives the projection.
// Run: `npx tsx bench/qr-sort-bench.ts [frames=16]` (about a minute for 16).
import path from "node:path";
import QRCode from "qrcode";
import sharp from "sharp";
import { cardReaderThreads, readCards, shutDownCardReader } from "@/lib/imaging/card-reader/read-cards";
import { qrPayload } from "@/lib/services/qr/payload";

const N = Number(process.argv[2] ?? 16);
const WIDTH = 4000;
const HEIGHT = 3000;
const TARGET_400_MS = 120_000;
const PHOTOS = ["lib/ml/background-removal/fixtures/astronaut.png", "test/fixtures/faces/obama.jpg", "lib/ml/background-removal/fixtures/chelsea.png", "test/fixtures/faces/two_people.jpg"];

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
  const bytes = await sharp(await base.png().toBuffer()).composite([{ input: turned, left: 2300, top: 1200 }]).blur(0.8).jpeg({ quality: 90 }).toBuffer();
  return { bytes, card: text };
}

async function main() {
  console.log(`making ${N} frames of ${WIDTH} x ${HEIGHT} …`);
  const frames: { bytes: Buffer; card: string | null }[] = [];
  for (let i = 0; i < N; i++) frames.push(await frame(i));
  const rssBefore = process.memoryUsage().rss;

  let cpu = process.cpuUsage();
  let started = performance.now();
  for (const f of frames) await sharp(f.bytes).rotate().raw().toBuffer();
  const decodeMs = performance.now() - started;
  const decodeCpu = process.cpuUsage(cpu);

  await readCards(frames[1]!.bytes); // the worker's start and the wasm's compilation, paid once per process
  cpu = process.cpuUsage();
  started = performance.now();
  let read = 0;
  let wrong = 0;
  const perKind = { card: [] as number[], plain: [] as number[] };
  for (const f of frames) {
    const t = performance.now();
    const r = await readCards(f.bytes);
    (f.card ? perKind.card : perKind.plain).push(performance.now() - t);
    if (f.card && r.codes.includes(f.card)) read++;
    if (!f.card && r.codes.length > 0) wrong++;
  }
  const readMs = performance.now() - started;
  const readCpu = process.cpuUsage(cpu);
  // As the sort's job reads them: as many frames at once as the reader has threads.
  const threads = cardReaderThreads();
  await Promise.all(Array.from({ length: threads }, () => readCards(frames[1]!.bytes))); // every thread started
  started = performance.now();
  let next = 0;
  const lane = async () => {
    for (let f = frames[next++]; f; f = frames[next++]) await readCards(f.bytes);
  };
  await Promise.all(Array.from({ length: threads }, lane));
  const parallelMs = performance.now() - started;
  await shutDownCardReader();
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  const cards = frames.filter((f) => f.card).length;
  const perFrame = readMs / N;
  console.log(
    JSON.stringify(
      {
        frames: N,
        size: `${WIDTH}x${HEIGHT}`,
        cards_read: `${read}/${cards}`,
        false_cards: wrong,
        baseline_decode_ms_per_frame: Math.round(decodeMs / N),
        read_ms_per_frame: Math.round(perFrame),
        read_ms_card_frames: Math.round(mean(perKind.card)),
        read_ms_plain_frames: Math.round(mean(perKind.plain)),
        ratio_vs_decode: +(readMs / decodeMs).toFixed(2),
        cpu_ms_per_frame: { decode: Math.round((decodeCpu.user + decodeCpu.system) / 1000 / N), read: Math.round((readCpu.user + readCpu.system) / 1000 / N) },
        projected_400_frames_one_thread_s: Math.round((perFrame * 400) / 1000),
        threads,
        read_ms_per_frame_threads: Math.round(parallelMs / N),
        projected_400_frames_s: Math.round(((parallelMs / N) * 400) / 1000),
        target_400_frames_s: TARGET_400_MS / 1000,
        peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
        rss_before_reading_mb: Math.round(rssBefore / 1024 / 1024),
      },
      null,
      2,
    ),
  );
}

void main();
