import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, inArray, ne } from "drizzle-orm";
import { getDb } from "@/lib/foundation/db/client";
import { faceReferences, referenceBuilds } from "@/lib/foundation/db/schema";
import { EMBEDDING_MODEL, shutDownFaces } from "@/lib/engines/ml/faces";
import { rebuildOutdatedReferences } from "@/lib/services/matching/outdated-references";
import { testAccount } from "../http";
import { balanceOf, startTestRunner, stopAll } from "../jobs/bg-remove-harness";
import * as h from "../jobs/matching-harness";
import { faceFixture } from "../support/face-fixtures";

// A change of recognition model (EMBEDDING_MODEL): references of the model before are never
// compared with the new one's, matching is refused until they are rebuilt, and the rebuild is
// the durable reference job, started by itself. Real photos, the real engine and job runner.
beforeAll(() => startTestRunner());
afterAll(async () => {
  await stopAll();
  await shutDownFaces();
});

const OLD_MODEL = "face-api-recognition-1.7/dlib-chip-150/v1";

/** Turns the agency's references into what the model before left behind: 128 numbers, the old model's name. */
async function ageReferences(agencyId: number) {
  const db = await getDb();
  const old = Array.from({ length: 128 }, (_, i) => (i % 2 ? 1 : -1) / Math.sqrt(128));
  await db.update(faceReferences).set({ model: OLD_MODEL, embedding: old }).where(eq(faceReferences.agencyId, agencyId));
}

describe("face matching after a change of recognition model", () => {
  it("refuses a match job with 409 naming the rebuild task, charges nothing, rebuilds the references as a job with progress, then matches", async () => {
    const { token } = await testAccount({ tokens: 100 });
    const agency = await h.makeAgency(token);
    await h.subjectWithPhoto(token, agency.id, "S-OBAMA", "Barack Obama", faceFixture("obama.jpg"));
    await h.subjectWithPhoto(token, agency.id, "S-BIDEN", "Joe Biden", faceFixture("biden.jpg"));
    expect((await h.buildReferences(token, { agency_id: agency.id })).json).toMatchObject({ embeddings_created: 2 });
    await ageReferences(agency.id);
    const job = await h.makeJobWithPhotos(token, agency.id, [{ name: "obama2.jpg", bytes: faceFixture("obama2.jpg") }]);

    const refused = await h.startMatchJob(token, { agency_id: agency.id, job_id: job.jobId });
    expect(refused.status).toBe(409);
    expect(refused.json).toMatchObject({ error: "REFERENCES_OUTDATED", details: { field: "agency_id", task_id: expect.stringMatching(/^task_/), subjects_total: 2 } });
    expect(refused.json.message).toMatch(/recognition model was updated.*being rebuilt/);
    expect(await balanceOf(token)).toBe(100);
    // Asking again while it runs points at the same task, never a second build.
    const again = await h.startMatchJob(token, { agency_id: agency.id, job_id: job.jobId });
    expect([409, 200]).toContain(again.status);
    if (again.status === 409) expect(again.json.details.task_id).toBe(refused.json.details.task_id);

    const task = await h.pollStudioTask(token, refused.json.details.task_id);
    expect(task).toMatchObject({ type: "face_references", status: "completed", subjects_total: 2, processed: 2, embeddings_created: 2 });
    const refs = await (await getDb()).select().from(faceReferences).where(eq(faceReferences.agencyId, agency.id));
    expect(refs).toHaveLength(2);
    for (const r of refs) {
      expect(r.model).toBe(EMBEDDING_MODEL);
      expect(r.embedding).toHaveLength(256);
    }
    const stranger = await testAccount();
    expect((await h.getStudioTask(stranger.token, refused.json.details.task_id)).status).toBe(404);

    const res = await h.startMatchJob(token, { agency_id: agency.id, job_id: job.jobId });
    expect(res.status).toBe(200);
    const done = await h.pollMatchJob(token, res.json.match_job_id);
    expect(done).toMatchObject({ status: "completed", total_files: 1 });
    expect(done.matched + done.needs_review).toBe(1);
  }, 240_000);

  it("the sweep starts one rebuild per agency holding another model's references, and none twice", async () => {
    const { token } = await testAccount();
    const agency = await h.makeAgency(token);
    await h.subjectWithPhoto(token, agency.id, "S-OBAMA", "Barack Obama", faceFixture("obama.jpg"));
    await h.buildReferences(token, { agency_id: agency.id });
    const db = await getDb();
    const builds = () => db.select().from(referenceBuilds).where(eq(referenceBuilds.agencyId, agency.id));
    expect(await rebuildOutdatedReferences(db)).toBe(0);
    await ageReferences(agency.id);
    expect(await rebuildOutdatedReferences(db)).toBeGreaterThanOrEqual(1);
    const started = await builds();
    expect(started).toHaveLength(1);
    await rebuildOutdatedReferences(db);
    expect(await builds()).toHaveLength(1);
    const task = await h.pollStudioTask(token, started[0]!.id);
    expect(task.status).toBe("completed");
    const left = await db.select().from(faceReferences).where(and(eq(faceReferences.agencyId, agency.id), ne(faceReferences.model, EMBEDDING_MODEL)));
    expect(left).toEqual([]);
    expect(await db.select().from(faceReferences).where(inArray(faceReferences.agencyId, [agency.id]))).toHaveLength(1);
  }, 240_000);
});
