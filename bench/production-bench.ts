// Production: a picture day's paid orders turned into lab files. BENCH_PROD_ORDERS orders
// (default 200) of 3 prints each (a 2 x 2.5 in wallet, a 5 x 7 and an 8 x 10, each with
// the parent's crop) from 12 MP originals (4000 x 3000 JPEG q90, the source photo whole on
// a grey backdrop, as a photographer frames the child's head; the children cycle through
// BENCH_PROD_PHOTOS distinct files, default 12), made into one school batch
// through the service, rendered and preflighted by the durable job on the embedded
// runner, then the lab ZIP streamed out and the packing slips made.
// The crops (BENCH_PROD_CROPS): `face` (default) places each print's crop on the photo's
// stored face as the storefront starts it (the face found once per photo before the timed
// part, as it is when the parent opens the crop; the crop's centre on the face's, its top
// a third of a face above it, kept inside the photo); `fixed`, every crop 90 % of the
// photo's height from 5 % down, centred (which cuts the heads of faces near the top).
// Baseline in the same process: sharp alone making the same print files from the same
// originals (decode, crop, resize, JPEG), with no database, storage or preflight, so
// the chain's overhead is a ratio. Reports wall time and the process's peak memory.
//
//   npx tsx bench/production-bench.ts                    (PGlite)
//   DATABASE_URL=postgres://... npx tsx bench/production-bench.ts
//
// The last line of stdout is JSON.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { eq } from "drizzle-orm";
import { atMegapixels, peakRssMb } from "./bg-bench-support";

const ORDERS = Number(process.env.BENCH_PROD_ORDERS ?? 200);
const PHOTOS = Number(process.env.BENCH_PROD_PHOTOS ?? 12);
const BASELINE_ORDERS = Math.min(ORDERS, Number(process.env.BENCH_PROD_BASELINE ?? 10));
const TARGET = { seconds: 600, peakMb: 1536 };
const CROPS = process.env.BENCH_PROD_CROPS === "fixed" ? "fixed" : "face";

process.env.DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), "production-bench-"));
process.env.AUTH_SECRET ??= "bench-secret-bench-secret-bench-secret-0123";
process.env.APP_URL ??= "http://localhost:3000";
process.env.DEMO_ACCOUNT = "never";
process.env.JOB_WARM_UP = "off";

const SOURCES = ["lib/engines/ml/background-removal/fixtures/astronaut.png", "test/fixtures/faces/obama.jpg", "lib/engines/ml/background-removal/fixtures/chelsea.png", "lib/engines/ml/background-removal/fixtures/coffee.png"];
const PRINTS = [
  { key: "wallet", widthIn: 2, heightIn: 2.5 },
  { key: "5x7", widthIn: 5, heightIn: 7 },
  { key: "8x10", widthIn: 8, heightIn: 10 },
];
/** Portrait crops of a 4:3 landscape original in each print's shape (height 90% of the photo). */
const cropFor = (p: { widthIn: number; heightIn: number }) => {
  const height = 0.9;
  const width = (height * 3000 * (p.widthIn / p.heightIn)) / 4000;
  return { x: (1 - width) / 2, y: 0.05, width, height };
};

type Crop = { x: number; y: number; width: number; height: number };
/** The crop of `cropFor`, moved so the face (fractions of the photo) is centred across, its top a third of a face below the crop's. */
const cropOnFace = (p: { widthIn: number; heightIn: number }, face: Crop | null): Crop => {
  const c = cropFor(p);
  if (!face) return c;
  const clamp = (n: number, hi: number) => Math.min(hi, Math.max(0, n));
  return { ...c, x: clamp(face.x + face.width / 2 - c.width / 2, 1 - c.width), y: clamp(face.y - face.height / 3, 1 - c.height) };
};

async function main() {
  const driver = process.env.DATABASE_URL ? "PostgreSQL" : "PGlite";
  const machine = `${os.cpus().length} x ${os.cpus()[0]?.model ?? "cpu"}, Node ${process.version}, load ${os.loadavg()[0]!.toFixed(1)}`;
  const { getDb } = await import("@/lib/foundation/db/client");
  const { createAccount } = await import("@/lib/domain/identity/create-account");
  const schema = await import("@/lib/foundation/db/schema");
  const { newId } = await import("@/lib/foundation/ids");
  const { storage } = await import("@/lib/domain/storage");
  const { createBatch, getBatch } = await import("@/lib/services/production/batches");
  const { batchZip, batchSlips } = await import("@/lib/services/production/batch-downloads");
  const { renderPrint } = await import("@/lib/engines/imaging/render-print");
  const { photoFace } = await import("@/lib/services/orders/photo-face");
  const { faceSafeAreaCounts } = await import("@/lib/services/production/face-safe-area");
  const { startJobRunner, stopJobRunner } = await import("@/lib/domain/jobs/runner/runner-instance");
  (await import("@/inngest/register")).registerAppJobs();

  const db = await getDb();
  const account = await createAccount(db, { email: `bench-${Date.now()}@example.com`, password: "bench passphrase 123", name: "Bench", verified: true, signupTokens: 0 });
  const [agency] = await db.insert(schema.agencies).values({ accountId: account.id, name: "Bench school", agencyType: "school" }).returning();
  const [job] = await db.insert(schema.agencyJobs).values({ accountId: account.id, agencyId: agency!.id, name: "Bench picture day", icpType: "school" }).returning();
  const products = await db
    .insert(schema.products)
    .values(PRINTS.map((p) => ({ id: newId("prd"), accountId: account.id, sku: `B-${p.key}`, name: p.key, productType: "poster", widthIn: p.widthIn, heightIn: p.heightIn, bleedMm: 0, minPpi: 150, colorMode: "rgb", price: 1000, currency: "USD" })))
    .returning();
  const [sheet] = await db
    .insert(schema.priceSheets)
    .values({ id: newId("psh"), accountId: account.id, name: "Bench", currency: "usd", items: products.map((p) => ({ id: p.sku, kind: "print" as const, product_id: p.id, name: p.name, price: 1000, lab_cost: 200 })), shipping: [{ id: "school", type: "school", name: "Bench school", batch_date: "2026-12-15" }] })
    .returning();

  console.log(`making ${PHOTOS} distinct 12 MP originals …`);
  const originals: Buffer[] = [];
  const fileIds: number[] = [];
  for (let i = 0; i < PHOTOS; i++) {
    const mp12 = await atMegapixels(path.resolve(SOURCES[i % SOURCES.length]!), 12);
    const bytes = await sharp(mp12).resize(4000, 3000, { fit: "contain", background: { r: 118, g: 124, b: 130 } }).flatten({ background: { r: 118, g: 124, b: 130 } }).modulate({ hue: i * 25 }).jpeg({ quality: 90 }).toBuffer();
    originals.push(bytes);
    const key = `studio/${account.id}/bench/${i}.jpg`;
    await storage().put(key, bytes, "image/jpeg");
    const [file] = await db.insert(schema.jobFiles).values({ accountId: account.id, jobId: job!.id, filename: `${i}.jpg`, storageKey: key, thumbnailKey: key, contentType: "image/jpeg", size: bytes.length, width: 4000, height: 3000 }).returning();
    fileIds.push(file!.id);
  }
  console.log(`finding each original's face …`);
  const faces: (Crop | null)[] = [];
  for (const id of fileIds) {
    const face = await photoFace(db, account.id, id);
    faces.push(face ? face.faceBox : null);
  }
  const orderCrop = (i: number, p: { widthIn: number; heightIn: number }) => (CROPS === "face" ? cropOnFace(p, faces[i % fileIds.length] ?? null) : cropFor(p));
  console.log(`writing ${ORDERS} paid orders of ${PRINTS.length} prints …`);
  const teachers = ["Ms Avery", "Mr Brook", "Ms Chen", "Mr Diaz", "Ms Evans", "Mr Ford"];
  for (let i = 0; i < ORDERS; i++) {
    const subjectId = newId("sub");
    await db.insert(schema.subjects).values({ id: subjectId, accountId: account.id, agencyId: agency!.id, studentId: `S${i}`, name: `Child ${i}`, className: `${(i % 6) + 1}A`, teacher: teachers[i % teachers.length]! });
    const [gallery] = await db.insert(schema.galleries).values({ id: newId("gal"), accountId: account.id, jobId: job!.id, kind: "subject", subjectId, status: "published", publishedAt: new Date() }).returning();
    const [photo] = await db.insert(schema.galleryPhotos).values({ id: newId("gph"), galleryId: gallery!.id, accountId: account.id, jobFileId: fileIds[i % fileIds.length]!, source: "qr_sort", position: 0 }).returning();
    const orderId = newId("ord");
    await db.insert(schema.orders).values({ id: orderId, accountId: account.id, jobId: job!.id, subjectId, priceSheetId: sheet!.id, email: "p@example.com", status: "paid", currency: "usd", subtotal: 3000, total: 3000, shipping: { option_id: "school", type: "school", name: "Bench school", batch_date: "2026-12-15" }, stripeAccountId: "acct_bench", paidAt: new Date() });
    await db.insert(schema.orderItems).values(PRINTS.map((p, k) => ({ id: newId("oit"), orderId, accountId: account.id, photoId: photo!.id, position: k, kind: "item" as const, refId: `B-${p.key}`, name: p.key, quantity: 1, unitPrice: 1000, unitLabCost: 200, lineTotal: 1000, crop: orderCrop(i, p) })));
  }

  // Baseline: the same print files made by sharp alone (no database, storage or preflight).
  sharp.cache(false);
  const b0 = performance.now();
  for (let i = 0; i < BASELINE_ORDERS; i++) {
    for (const p of PRINTS) {
      const crop = orderCrop(i, p);
      await sharp(originals[i % originals.length]!)
        .extract({ left: Math.round(crop.x * 4000), top: Math.round(crop.y * 3000), width: Math.round(crop.width * 4000), height: Math.round(crop.height * 3000) })
        .resize(p.widthIn * 300, p.heightIn * 300, { fit: "fill" })
        .jpeg({ quality: 95 })
        .toBuffer();
    }
  }
  const baselineMsPerPrint = (performance.now() - b0) / (BASELINE_ORDERS * PRINTS.length);
  // The engine alone (renderPrint: orientation, ICC, density, thumbnail) on the same files.
  const e0 = performance.now();
  for (let i = 0; i < BASELINE_ORDERS; i++) for (const p of PRINTS) await renderPrint(originals[i % originals.length]!, orderCrop(i, p), { ...p, ppi: 300, bleedMm: 0 }, 268_402_689);
  const engineMsPerPrint = (performance.now() - e0) / (BASELINE_ORDERS * PRINTS.length);

  await startJobRunner({ pollMs: 100 });
  const j0 = performance.now();
  const made = await createBatch(db, account.id, { shipping: "school", job_id: job!.id });
  let batch = made;
  for (;;) {
    batch = await getBatch(db, account.id, made.id);
    if (batch.status !== "rendering") break;
    await new Promise((r) => setTimeout(r, 1000));
  }
  const renderSeconds = (performance.now() - j0) / 1000;
  const held = await db.select({ code: schema.printFiles.holdCode }).from(schema.printFiles).where(eq(schema.printFiles.accountId, account.id));
  const heldByCode: Record<string, number> = {};
  for (const h of held) if (h.code) heldByCode[h.code] = (heldByCode[h.code] ?? 0) + 1;
  await stopJobRunner({ drainMs: 0 });
  const z0 = performance.now();
  const { stream } = await batchZip(db, account.id, made.id);
  let zipBytes = 0;
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) zipBytes += chunk.byteLength;
  const zipSeconds = (performance.now() - z0) / 1000;
  const s0 = performance.now();
  const slips = await batchSlips(db, account.id, made.id);
  const slipsSeconds = (performance.now() - s0) / 1000;
  const prints = ORDERS * PRINTS.length;
  const totalSeconds = renderSeconds + zipSeconds + slipsSeconds;
  const out = {
    driver,
    machine,
    at: new Date().toISOString(),
    orders: ORDERS,
    prints,
    crops: CROPS,
    status: batch.status,
    heldByCode,
    faceChecks: { ...faceSafeAreaCounts },
    progress: batch.progress,
    renderSeconds: +renderSeconds.toFixed(1),
    zipSeconds: +zipSeconds.toFixed(1),
    zipMb: Math.round(zipBytes / 2 ** 20),
    slipsSeconds: +slipsSeconds.toFixed(1),
    slipsPages: slips.orders.length,
    totalSeconds: +totalSeconds.toFixed(1),
    msPerPrint: Math.round((renderSeconds * 1000) / prints),
    sharpAloneMsPerPrint: Math.round(baselineMsPerPrint),
    renderPrintMsPerPrint: Math.round(engineMsPerPrint),
    chainVsSharpAlone: +((renderSeconds * 1000) / prints / baselineMsPerPrint).toFixed(2),
    projectedSecondsFor600Prints: Math.round((totalSeconds / prints) * 600),
    target: TARGET,
    peakRssMb: peakRssMb(),
  };
  console.log(
    `${driver}: ${ORDERS} orders, ${prints} prints rendered+preflighted in ${out.renderSeconds} s (${out.msPerPrint} ms a print; sharp alone ${out.sharpAloneMsPerPrint} ms, renderPrint ${out.renderPrintMsPerPrint} ms: chain ${out.chainVsSharpAlone}x sharp alone), ZIP ${out.zipMb} MB in ${out.zipSeconds} s, ${out.slipsPages} slips in ${out.slipsSeconds} s, peak ${out.peakRssMb} MB`,
  );
  console.log(JSON.stringify(out));
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
