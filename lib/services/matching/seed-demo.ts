import fs from "node:fs";
import path from "node:path";
import type { Db } from "@/lib/db/types";
import { agencies, agencyJobs, referenceBuilds, subjects } from "@/lib/db/schema";
import { newId } from "@/lib/ids";
import { startJob } from "@/lib/jobs/start-job";
import { OUTPUT_URL_TTL_SECONDS, storage } from "@/lib/storage";
import { storeFile } from "@/lib/services/studio/job-files";

/** Shipped with the app (see demo/README.md); listed in lib/workers/engine-files.ts for the standalone build. */
const DEMO_DIR = path.join(/* turbopackIgnore: true */ process.cwd(), "lib/services/matching/demo");

const ROSTER = [
  { studentId: "D-1001", name: "Barack Obama", className: "5A", photo: "obama.jpg" },
  { studentId: "D-1002", name: "Joe Biden", className: "5A", photo: "biden.jpg" },
];
const EVENT_PHOTOS = ["obama2.jpg", "obama3.jpg", "obama-1080p.jpg", "biden2.jpg", "obama_and_biden.jpg", "two_people.jpg"];

/**
 * The demo account's sample agency: a roster with reference portraits, a job of
 * event photos, and its references built by the job runner in the background,
 * so a newcomer can start a match job and review it at once.
 */
export async function seedMatchingDemo(db: Db, accountId: string): Promise<{ agencyId: number } | null> {
  if (!fs.existsSync(DEMO_DIR)) return null;
  const read = (name: string) => fs.readFileSync(path.join(DEMO_DIR, name));
  const [agency] = await db.insert(agencies).values({ accountId, name: "Demo: Maple Grove School", agencyType: "school", matchingUsedAt: new Date() }).returning();
  for (const s of ROSTER) {
    const key = `uploads/${accountId}/${newId("demo")}.jpg`;
    await storage().put(key, read(s.photo), "image/jpeg");
    await db.insert(subjects).values({
      id: newId("sub"),
      accountId,
      agencyId: agency!.id,
      studentId: s.studentId,
      name: s.name,
      className: s.className,
      referencePhotoUrl: await storage().signedUrl(key, OUTPUT_URL_TTL_SECONDS),
      referencePhotoKey: key,
    });
  }
  const [job] = await db.insert(agencyJobs).values({ accountId, agencyId: agency!.id, name: "Demo: Spring concert", icpType: "school", status: "active" }).returning();
  for (const name of EVENT_PHOTOS) await storeFile(db, accountId, job!.id, { bytes: read(name), filename: name, sourceUrl: null, field: "file" });
  const taskId = newId("task");
  await db.transaction(async (tx) => {
    await tx.insert(referenceBuilds).values({ id: taskId, accountId, agencyId: agency!.id, status: "queued", subjectsTotal: ROSTER.length });
    await startJob(tx, { name: "matching/references.requested", data: { taskId, accountId } });
  });
  return { agencyId: agency!.id };
}
