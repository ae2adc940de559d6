// Parent galleries: publishing a sorted picture day and a gallery page's server time.
// BENCH_GALLERY_SUBJECTS children (default 40; the goal is 400) x
// BENCH_GALLERY_PHOTOS photos each (default 5) of 12 MP (4000 x 3000 JPEG q90; the
// files cycle through BENCH_GALLERY_DISTINCT distinct originals, default 8, stored once
// and shared by the job's file rows, so the disk holds 8 originals, not 2,000).
// The sort is written as a finished QR sort's rows (the sort itself is qr-sort-bench's);
// then the service publishes (galleries, codes) and the gallery-previews job renders
// every watermarked preview on the embedded runner, as in production.
// Baseline in the same process: sharp alone making the same previews (decode, resize to
// 1,200 px, JPEG) from the same originals, with no watermark, database or storage.
// Then a parent's gallery page: POST /v1/parent/access once, and GET
// /v1/parent/galleries/{id}/photos through its route handler, against the bare
// /api/health handler as the baseline. Reports wall time, ratios, and the process's peak memory.
//
//   npx tsx bench/gallery-publish-bench.ts                    (PGlite)
//   BENCH_GALLERY_SUBJECTS=400 npx tsx bench/gallery-publish-bench.ts    (the goal's size)
//
// The last line of stdout is JSON.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { atMegapixels, peakRssMb, stats } from "./bg-bench-support";

const SUBJECTS = Number(process.env.BENCH_GALLERY_SUBJECTS ?? 40);
const PER_CHILD = Number(process.env.BENCH_GALLERY_PHOTOS ?? 5);
const DISTINCT = Number(process.env.BENCH_GALLERY_DISTINCT ?? 8);
const BASELINE_PHOTOS = Math.min(SUBJECTS * PER_CHILD, Number(process.env.BENCH_GALLERY_BASELINE ?? 16));
const PAGE_CALLS = 40;
/** The goals: 400 x 5 published in 5 minutes; a gallery page's server time 300 ms. */
const TARGET = { publishSecondsFor2000Photos: 300, pageServerMs: 300 };

process.env.DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), "gallery-bench-"));
process.env.AUTH_SECRET ??= "bench-secret-bench-secret-bench-secret-0123";
process.env.APP_URL ??= "http://localhost:3000";
process.env.DEMO_ACCOUNT = "never";
process.env.JOB_WARM_UP = "off";
process.env.RATE_LIMIT_PER_MINUTE ??= "100000";

const SOURCES = ["lib/engines/ml/background-removal/fixtures/astronaut.png", "test/fixtures/faces/obama.jpg", "lib/engines/ml/background-removal/fixtures/chelsea.png", "lib/engines/ml/background-removal/fixtures/coffee.png"];

async function main() {
  const driver = process.env.DATABASE_URL ? "PostgreSQL" : "PGlite";
  const load = () => os.loadavg()[0]!.toFixed(1);
  const machine = `${os.cpus().length} x ${os.cpus()[0]?.model ?? "cpu"}, Node ${process.version}`;
  const loadBefore = load();
  const { getDb } = await import("@/lib/foundation/db/client");
  const { createAccount } = await import("@/lib/domain/identity/create-account");
  const schema = await import("@/lib/foundation/db/schema");
  const { newId } = await import("@/lib/foundation/ids");
  const { storage } = await import("@/lib/domain/storage");
  const { publishJobGalleries } = await import("@/lib/services/galleries/publish");
  const { filesNeedingPreviews } = await import("@/lib/services/galleries/render-previews");
  const { PREVIEW_MAX_PX } = await import("@/lib/services/galleries/watermark");
  const { startJobRunner, stopJobRunner } = await import("@/lib/domain/jobs/runner/runner-instance");
  const access = await import("@/app/v1/parent/access/route");
  const photosRoute = await import("@/app/v1/parent/galleries/[galleryId]/photos/route");
  const health = await import("@/app/api/health/route");
  (await import("@/inngest/register")).registerAppJobs();

  const db = await getDb();
  const account = await createAccount(db, { email: `bench-${Date.now()}@example.com`, password: "bench passphrase 123", name: "Bench", verified: true, signupTokens: 0 });
  const [agency] = await db.insert(schema.agencies).values({ accountId: account.id, name: "Bench school", agencyType: "school" }).returning();
  const [job] = await db.insert(schema.agencyJobs).values({ accountId: account.id, agencyId: agency!.id, name: "Bench picture day", icpType: "school" }).returning();

  console.log(`making ${DISTINCT} distinct 12 MP originals …`);
  const originals: Buffer[] = [];
  for (let i = 0; i < DISTINCT; i++) {
    const mp12 = await atMegapixels(path.resolve(SOURCES[i % SOURCES.length]!), 12);
    const bytes = await sharp(mp12).resize(4000, 3000, { fit: "cover" }).modulate({ hue: i * 25 }).jpeg({ quality: 90 }).toBuffer();
    originals.push(bytes);
    await storage().put(`studio/${account.id}/bench/${i}.jpg`, bytes, "image/jpeg");
  }
  const keyOf = (i: number) => `studio/${account.id}/bench/${i % DISTINCT}.jpg`;
  console.log(`writing ${SUBJECTS} children x ${PER_CHILD} photos as a finished QR sort …`);
  const taskId = newId("qrs");
  await db.insert(schema.qrSortTasks).values({ id: taskId, accountId: account.id, agencyId: agency!.id, jobId: job!.id, status: "completed", filesTotal: SUBJECTS * (PER_CHILD + 1), processed: SUBJECTS * (PER_CHILD + 1) });
  let n = 0;
  for (let s = 0; s < SUBJECTS; s++) {
    const subjectId = newId("sub");
    await db.insert(schema.subjects).values({ id: subjectId, accountId: account.id, agencyId: agency!.id, studentId: `S${s}`, name: `Child ${s}`, className: `${(s % 6) + 1}A` });
    const files = await db
      .insert(schema.jobFiles)
      .values(Array.from({ length: PER_CHILD }, (_, k) => ({ accountId: account.id, jobId: job!.id, filename: `${s}-${k}.jpg`, storageKey: keyOf(s * PER_CHILD + k), thumbnailKey: keyOf(s * PER_CHILD + k), contentType: "image/jpeg", size: 1, width: 4000, height: 3000 })))
      .returning({ id: schema.jobFiles.id, filename: schema.jobFiles.filename });
    await db.insert(schema.qrSortFrames).values(files.map((f) => ({ taskId, accountId: account.id, fileId: f.id, filename: f.filename, status: "read" as const, sequence: n++, role: "subject" as const, subjectId })));
  }
  const photos = SUBJECTS * PER_CHILD;

  // Baseline: the same previews made by sharp alone.
  sharp.cache(false);
  const b0 = performance.now();
  for (let i = 0; i < BASELINE_PHOTOS; i++) await sharp(originals[i % DISTINCT]!).rotate().resize(PREVIEW_MAX_PX, PREVIEW_MAX_PX, { fit: "inside" }).jpeg({ quality: 80 }).toBuffer();
  const sharpAloneMs = (performance.now() - b0) / BASELINE_PHOTOS;
  // The engine alone (renderWatermarkedPreview: the same resize plus the studio's watermark) on the same files.
  const { renderWatermarkedPreview } = await import("@/lib/services/galleries/watermark");
  const e0 = performance.now();
  for (let i = 0; i < BASELINE_PHOTOS; i++) await renderWatermarkedPreview(originals[i % DISTINCT]!, { text: "Bench Studio" });
  const engineMs = (performance.now() - e0) / BASELINE_PHOTOS;

  await startJobRunner({ pollMs: 100 });
  const p0 = performance.now();
  const published = await publishJobGalleries(db, account.id, agency!.id, job!.id, {});
  const publishRequestMs = performance.now() - p0;
  for (;;) {
    if ((await filesNeedingPreviews(db, account.id, job!.id)).fileIds.length === 0) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  const publishSeconds = (performance.now() - p0) / 1000;
  const loadDuring = load();
  await stopJobRunner({ drainMs: 0 });

  // A parent's gallery page: the code exchanged once, then the photos page, repeatedly.
  const { listJobGalleries } = await import("@/lib/services/galleries/studio-galleries");
  const { items } = await listJobGalleries(db, account.id, agency!.id, job!.id, { limit: 1, offset: 0 });
  const req = (url: string, init?: RequestInit) => new Request(`http://localhost:3000${url}`, { ...init, headers: { "x-forwarded-for": "203.0.113.9", ...(init?.headers ?? {}) } });
  const accessRes = await access.POST(req("/v1/parent/access", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ code: items[0]!.access_code }) }), { params: Promise.resolve({}) });
  const { token, galleries } = (await accessRes.json()) as { token: string; galleries: Array<{ id: string }> };
  const galleryId = galleries[0]!.id;
  const time = async (fn: () => Promise<Response>) => {
    const xs: number[] = [];
    for (let i = 0; i < PAGE_CALLS; i++) {
      const t = performance.now();
      const res = await fn();
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`status ${res.status}`);
      xs.push(performance.now() - t);
    }
    return stats(xs);
  };
  const bare = await time(async () => health.GET());
  const page = await time(() =>
    photosRoute.GET(req(`/v1/parent/galleries/${galleryId}/photos?limit=50`, { headers: { authorization: `Bearer ${token}` } }), { params: Promise.resolve({ galleryId }) }),
  );

  const out = {
    driver,
    machine,
    load: { before: loadBefore, duringPublish: loadDuring, after: load() },
    at: new Date().toISOString(),
    subjects: SUBJECTS,
    photos,
    galleries: published.galleries,
    publishRequestMs: Math.round(publishRequestMs),
    publishSeconds: +publishSeconds.toFixed(1),
    msPerPhoto: Math.round((publishSeconds * 1000) / photos),
    sharpAloneMsPerPhoto: Math.round(sharpAloneMs),
    watermarkEngineMsPerPhoto: Math.round(engineMs),
    publishVsSharpAlone: +((publishSeconds * 1000) / photos / sharpAloneMs).toFixed(2),
    projectedSecondsFor400x5: Math.round((publishSeconds / photos) * 2000),
    pageServerMs: page,
    bareRouteMs: bare,
    pageVsBareP50: +(page.p50 / Math.max(1, bare.p50)).toFixed(1),
    target: TARGET,
    peakRssMb: peakRssMb(),
  };
  console.log(
    `${driver}: ${SUBJECTS} x ${PER_CHILD} = ${photos} photos published with previews in ${out.publishSeconds} s (request ${out.publishRequestMs} ms; ${out.msPerPhoto} ms a photo, sharp alone ${out.sharpAloneMsPerPhoto} ms, watermarked preview alone ${out.watermarkEngineMsPerPhoto} ms: chain ${out.publishVsSharpAlone}x sharp alone), projected ${out.projectedSecondsFor400x5} s for 400 x 5; gallery page p50 ${page.p50} ms p95 ${page.p95} ms (bare route p50 ${bare.p50} ms); peak ${out.peakRssMb} MB; load ${out.load.before} → ${out.load.duringPublish}`,
  );
  console.log(JSON.stringify(out));
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
