// AI Face Matching, a whole match job: a roster of BENCH_ROSTER subjects (two with real
// reference portraits, embedded by the engine; the rest stand-in embeddings, so ranking
// costs what a school's roster costs), a job of BENCH_MATCH_FILES photos about 1 MP each
// (the demo set's event photos, cycled), then the match job through the service, the
// debit and the durable job on the embedded runner, until every photo is decided.
// Baseline in the same process: describeFaces alone on the same photos (the engine's
// ceiling), so the job's overhead is a ratio.
//
//   npx tsx bench/match-job-bench.ts                     (PGlite)
//   DATABASE_URL=postgres://... npx tsx bench/match-job-bench.ts
//
// The last line of stdout is JSON.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { atMegapixels, peakRssMb } from "./bg-bench-support";

const FILES = Number(process.env.BENCH_MATCH_FILES ?? 500);
const ROSTER = Number(process.env.BENCH_ROSTER ?? 400);
const BASELINE = Math.min(FILES, Number(process.env.BENCH_BASELINE_FILES ?? 30));

process.env.DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), "match-job-bench-"));
process.env.AUTH_SECRET ??= "bench-secret-bench-secret-bench-secret-0123";
process.env.APP_URL ??= "http://localhost:3000";
process.env.DEMO_ACCOUNT = "never";
process.env.JOB_WARM_UP = "off";

const DEMO = path.resolve("lib/engines/ml/faces/demo-photos");

const oneMegapixel = (file: string) => atMegapixels(file, 1);

function randomUnit(dim: number): number[] {
  const v = Array.from({ length: dim }, () => Math.random() - 0.5);
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

async function main() {
  const driver = process.env.DATABASE_URL ? "PostgreSQL" : "PGlite";
  const machine = `${os.cpus().length} x ${os.cpus()[0]?.model ?? "cpu"}, Node ${process.version}, load ${os.loadavg()[0]!.toFixed(1)}`;
  const { getDb } = await import("@/lib/foundation/db/client");
  const { createAccount } = await import("@/lib/domain/identity/create-account");
  const { agencies, agencyJobs, faceReferences, matchJobs, subjects } = await import("@/lib/foundation/db/schema");
  const { newId } = await import("@/lib/foundation/ids");
  const { storage } = await import("@/lib/domain/storage");
  const { storeFile } = await import("@/lib/services/agencies/job-files");
  const { embedSubject } = await import("@/lib/services/matching/embed-subject");
  const { acceptMatchJob } = await import("@/lib/services/matching/accept-match-job");
  const { describeFaces, warmUpFaces, EMBEDDING_MODEL } = await import("@/lib/engines/ml/faces");
  const { startJobRunner, stopJobRunner } = await import("@/lib/domain/jobs/runner/runner-instance");
  (await import("@/inngest/register")).registerAppJobs();
  const { eq } = await import("drizzle-orm");

  const db = await getDb();
  const account = await createAccount(db, { email: `bench-${Date.now()}@example.com`, password: "bench passphrase 123", name: "Bench", verified: true, signupTokens: 1_000_000 });
  const [agency] = await db.insert(agencies).values({ accountId: account.id, name: "Bench school", agencyType: "school", faceMatchingEnabled: true, faceMatchingConsentBy: "bench", faceMatchingConsentAt: new Date() }).returning();
  const manifest = JSON.parse(fs.readFileSync(path.join(DEMO, "manifest.json"), "utf8")) as { subjects: { name: string; reference: string }[]; photos: { file: string }[] };
  await warmUpFaces({ embed: true });
  for (const [i, s] of manifest.subjects.entries()) {
    const key = `uploads/${account.id}/bench-${i}.jpg`;
    await storage().put(key, fs.readFileSync(path.join(DEMO, s.reference)), "image/jpeg");
    const [row] = await db.insert(subjects).values({ id: newId("sub"), accountId: account.id, agencyId: agency!.id, studentId: `R-${i}`, name: s.name, referencePhotoKey: key, referencePhotoUrl: null }).returning();
    await embedSubject(db, row!);
  }
  // The rest of the roster: stand-in embeddings (no photos to embed here), so each face is ranked against ROSTER subjects.
  for (let at = manifest.subjects.length; at < ROSTER; at += 200) {
    const rows = Array.from({ length: Math.min(200, ROSTER - at) }, (_, k) => ({ id: newId("sub"), accountId: account.id, agencyId: agency!.id, studentId: `X-${at + k}`, name: `Child ${at + k}` }));
    await db.insert(subjects).values(rows);
    await db.insert(faceReferences).values(rows.map((r) => ({ id: newId("fref"), subjectId: r.id, accountId: account.id, agencyId: agency!.id, embedding: randomUnit(256), model: EMBEDDING_MODEL, photoSource: "bench", faceBox: { x: 0, y: 0, w: 1, h: 1 } })));
  }
  const photos = await Promise.all(manifest.photos.filter((p) => !p.file.includes("no-face")).map((p) => oneMegapixel(path.join(DEMO, p.file))));
  const [job] = await db.insert(agencyJobs).values({ accountId: account.id, agencyId: agency!.id, name: "Bench event", icpType: "school" }).returning();
  const t0 = performance.now();
  for (let i = 0; i < FILES; i++) await storeFile(db, account.id, job!.id, { bytes: photos[i % photos.length]!, filename: `p${i}.jpg`, sourceUrl: null, field: "file" });
  const uploadSeconds = (performance.now() - t0) / 1000;

  // Baseline: the engine alone on the same photos, in order.
  let faces = 0;
  const b0 = performance.now();
  for (let i = 0; i < BASELINE; i++) faces += (await describeFaces(photos[i % photos.length]!, { maxFaces: 40 })).faces.length;
  const engineMsPerPhoto = (performance.now() - b0) / BASELINE;

  await startJobRunner({ pollMs: 100 });
  const j0 = performance.now();
  const accepted = await acceptMatchJob(db, account.id, { agency_id: agency!.id, job_id: job!.id });
  const acceptMs = performance.now() - j0;
  for (;;) {
    const [row] = await db.select().from(matchJobs).where(eq(matchJobs.id, accepted.match_job_id));
    if (row!.status === "completed" || row!.status === "failed") {
      const seconds = (performance.now() - j0) / 1000;
      await stopJobRunner({ drainMs: 0 });
      const out = {
        driver,
        machine,
        at: new Date().toISOString(),
        roster: ROSTER,
        files: FILES,
        status: row!.status,
        facesPerPhotoInBaseline: +(faces / BASELINE).toFixed(2),
        uploadSeconds: +uploadSeconds.toFixed(1),
        acceptMs: Math.round(acceptMs),
        jobSeconds: +seconds.toFixed(1),
        photosPerMinute: Math.round((FILES / seconds) * 60),
        engineAlonePhotosPerMinute: Math.round(60_000 / engineMsPerPhoto),
        jobVsEngine: +((FILES / seconds) * 60 / (60_000 / engineMsPerPhoto)).toFixed(2),
        peakRssMb: peakRssMb(),
      };
      console.log(`${driver}: ${FILES} photos against ${ROSTER} subjects in ${out.jobSeconds} s = ${out.photosPerMinute} photos/min (engine alone ${out.engineAlonePhotosPerMinute}/min, ${out.jobVsEngine}x), peak ${out.peakRssMb} MB`);
      console.log(JSON.stringify(out));
      process.exit(0);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
