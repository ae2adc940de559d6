import fs from "node:fs";
import path from "node:path";
import type { Db } from "@/lib/foundation/db/types";
import { agencies, agencyJobs, referenceBuilds, subjects } from "@/lib/foundation/db/schema";
import { newId } from "@/lib/foundation/ids";
import { startJob } from "@/lib/domain/jobs/start-job";
import { OUTPUT_URL_TTL_SECONDS, storage } from "@/lib/domain/storage";
import { storeFile } from "@/lib/services/agencies/job-files";

/**
 * The demo agency is the one switched on without a person's confirmation: its
 * photos are public images of public figures (lib/engines/ml/faces/demo-photos), not children.
 */
const DEMO_CONSENT = {
  faceMatchingEnabled: true,
  faceMatchingConsentBy: "demo data: public photos of public figures, no one to ask",
  faceMatchingConsentAt: new Date(),
};

/** Shipped with the app (lib/engines/ml/faces/demo-photos/README.md); listed in lib/engines/workers/engine-files.ts for the standalone build. */
const DEMO_DIR = path.join(/* turbopackIgnore: true */ process.cwd(), "lib/engines/ml/faces/demo-photos");

type Manifest = { subjects: { id: string; name: string; reference: string }[]; photos: { file: string }[] };

/**
 * The demo account's sample agency: a roster with reference portraits, a job of
 * event photos, and its references built by the job runner in the background,
 * so a newcomer can start a match job and review it at once.
 */
export async function seedMatchingDemo(db: Db, accountId: string): Promise<{ agencyId: number } | null> {
  if (!fs.existsSync(DEMO_DIR)) return null;
  const read = (name: string) => fs.readFileSync(path.join(DEMO_DIR, name));
  const manifest = JSON.parse(read("manifest.json").toString("utf8")) as Manifest;
  const [agency] = await db.insert(agencies).values({ accountId, name: "Demo: Maple Grove School", agencyType: "school", matchingUsedAt: new Date(), ...DEMO_CONSENT }).returning();
  for (const [i, s] of manifest.subjects.entries()) {
    const key = `uploads/${accountId}/${newId("demo")}.jpg`;
    await storage().put(key, read(s.reference), "image/jpeg");
    await db.insert(subjects).values({
      id: newId("sub"),
      accountId,
      agencyId: agency!.id,
      studentId: `D-${1001 + i}`,
      name: s.name,
      className: "5A",
      referencePhotoUrl: await storage().signedUrl(key, OUTPUT_URL_TTL_SECONDS),
      referencePhotoKey: key,
    });
  }
  const [job] = await db.insert(agencyJobs).values({ accountId, agencyId: agency!.id, name: "Demo: Spring concert", icpType: "school", status: "active" }).returning();
  for (const p of manifest.photos) await storeFile(db, accountId, job!.id, { bytes: read(p.file), filename: p.file, sourceUrl: null, field: "file" });
  const taskId = newId("task");
  await db.transaction(async (tx) => {
    await tx.insert(referenceBuilds).values({ id: taskId, accountId, agencyId: agency!.id, status: "queued", subjectsTotal: manifest.subjects.length });
    await startJob(tx, { name: "matching/references.requested", data: { taskId, accountId } });
  });
  return { agencyId: agency!.id };
}
