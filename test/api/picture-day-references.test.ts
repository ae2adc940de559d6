import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import * as qrSortRoute from "@/app/v1/services/studio/agencies/[agencyId]/jobs/[jobId]/qr-sort/route";
import { getDb } from "@/lib/foundation/db/client";
import { faceReferences, jobFiles, jobRuns } from "@/lib/foundation/db/schema";
import { EMBEDDING_MODEL, shutDownFaces } from "@/lib/engines/ml/faces";
import { shutDownCardReader } from "@/lib/engines/imaging/card-reader/read-cards";
import { call, testAccount } from "../http";
import { startTestRunner, stopAll } from "../jobs/bg-remove-harness";
import { pollTask } from "../jobs/face-crop-harness";
import { waitFor } from "../jobs/runner-harness";
import * as matching from "../jobs/matching-harness";
import { faceFixture } from "../support/face-fixtures";
import { cameraFrame, plainQrCard } from "../support/picture-day";

// References from picture day: a QR sort's runs (the frames after a child's card) become that
// child's references when the agency learns from confirmed faces. Real cards read by the card
// reader, real photos (MIT, ageitgey/face_recognition), the real face engine and job runner.
beforeAll(() => startTestRunner());
afterAll(async () => {
  await stopAll();
  await shutDownCardReader();
  await shutDownFaces();
});

const S = "/v1/services/studio";
const startSort = (token: string, agencyId: number, jobId: number) =>
  call(qrSortRoute, "POST", `${S}/agencies/${agencyId}/jobs/${jobId}/qr-sort`, { token, params: { agencyId: String(agencyId), jobId: String(jobId) } });

/** Obama's card, two of his photos; Biden's card, a photo of Obama (face_disagrees), one of Biden. No EXIF times: file-name order. */
async function pictureDay(token: string, agencyId: number) {
  const photos = [
    { name: "F1.jpg", bytes: await cameraFrame({ name: "F1.jpg", seconds: null, card: await plainQrCard("S-OBAMA"), fraction: 0.2, photo: 6 }) },
    { name: "F2.jpg", bytes: faceFixture("obama2.jpg") },
    { name: "F3.jpg", bytes: faceFixture("obama-1080p.jpg") },
    { name: "F4.jpg", bytes: await cameraFrame({ name: "F4.jpg", seconds: null, card: await plainQrCard("S-BIDEN"), fraction: 0.2, photo: 6 }) },
    { name: "F5.jpg", bytes: faceFixture("obama3.jpg") },
    { name: "F6.jpg", bytes: faceFixture("biden2.jpg") },
  ];
  const { jobId } = await matching.makeJobWithPhotos(token, agencyId, photos);
  const accepted = await startSort(token, agencyId, jobId);
  expect(accepted.status, accepted.text).toBe(202);
  await sortEnded(token, accepted.json.task_id);
  return jobId;
}

/** The sort's task is complete once its frames are filed; the references are learned in the job's last steps: wait for the whole run. */
async function sortEnded(token: string, taskId: string) {
  const task = await pollTask(token, taskId, 240_000);
  expect(task.status, JSON.stringify(task)).toBe("completed");
  const db = await getDb();
  await waitFor(
    async () => (await db.select({ status: jobRuns.status, data: jobRuns.eventData }).from(jobRuns)).find((r) => r.data.taskId === taskId && r.status === "completed"),
    240_000,
    `the run of sort ${taskId}`,
  );
}

/** The subject's learned references, by the file name of the frame each came from. */
async function learnedFrom(subjectId: string) {
  const rows = await (await getDb())
    .select({ filename: jobFiles.filename, model: faceReferences.model })
    .from(faceReferences)
    .innerJoin(jobFiles, eq(jobFiles.storageKey, faceReferences.photoSource))
    .where(and(eq(faceReferences.subjectId, subjectId), eq(faceReferences.source, "confirmed_match")));
  for (const r of rows) expect(r.model).toBe(EMBEDDING_MODEL);
  return rows.map((r) => r.filename).sort();
}

describe("references from picture day (QR sort runs)", () => {
  it("turns each run's frames into its child's references, leaving out a frame whose face disagrees; a second sort adds nothing twice", async () => {
    const { token } = await testAccount({ tokens: 50 });
    const agency = await matching.makeAgency(token, "Run School");
    const obama = await matching.subjectWithPhoto(token, agency.id, "S-OBAMA", "Barack Obama", faceFixture("obama.jpg"));
    const biden = await matching.subjectWithPhoto(token, agency.id, "S-BIDEN", "Joe Biden", faceFixture("biden.jpg"));
    expect((await matching.buildReferences(token, { agency_id: agency.id })).json.embeddings_total).toBe(2);
    const jobId = await pictureDay(token, agency.id);
    expect(await learnedFrom(obama.id)).toEqual(["F2.jpg", "F3.jpg"]);
    expect(await learnedFrom(biden.id)).toEqual(["F6.jpg"]);
    // The roster lists them as learned references.
    const listed = await call(await import("@/app/v1/services/studio/agencies/[agencyId]/subjects/[subjectId]/references/route"), "GET", `${S}/agencies/${agency.id}/subjects/${obama.id}/references`, {
      token,
      params: { agencyId: String(agency.id), subjectId: obama.id },
    });
    expect(listed.status, listed.text).toBe(200);
    const learned = listed.json.references.filter((r: { source: string }) => r.source === "confirmed_match");
    expect(learned.map((r: { filename: string }) => r.filename).sort()).toEqual(["F2.jpg", "F3.jpg"]);
    for (const r of learned) expect(r.thumbnail_url).toMatch(/^http/);
    // Sorting the same job again learns nothing twice.
    const again = await startSort(token, agency.id, jobId);
    await sortEnded(token, again.json.task_id);
    expect(await learnedFrom(obama.id)).toEqual(["F2.jpg", "F3.jpg"]);
  }, 400_000);

  it("learns nothing when the agency's learning setting is off", async () => {
    const { token } = await testAccount({ tokens: 50 });
    const agency = await matching.makeAgency(token, "Quiet School");
    expect((await matching.patchAgency(token, agency.id, { learn_from_confirmed_matches: false })).status).toBe(200);
    const obama = await matching.subjectWithPhoto(token, agency.id, "S-OBAMA", "Barack Obama", faceFixture("obama.jpg"));
    await matching.subjectWithPhoto(token, agency.id, "S-BIDEN", "Joe Biden", faceFixture("biden.jpg"));
    await matching.buildReferences(token, { agency_id: agency.id });
    await pictureDay(token, agency.id);
    expect(await learnedFrom(obama.id)).toEqual([]);
  }, 400_000);
});
