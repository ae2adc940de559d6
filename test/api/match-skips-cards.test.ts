import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unzipSync } from "fflate";
import * as qrSortRoute from "@/app/v1/services/studio/agencies/[agencyId]/jobs/[jobId]/qr-sort/route";
import * as jobRoute from "@/app/v1/services/studio/agencies/[agencyId]/jobs/[jobId]/route";
import * as zipRoute from "@/app/v1/services/studio/matching/jobs/[matchJobId]/export.zip/route";
import { shutDownFaces } from "@/lib/engines/ml/faces";
import { shutDownCardReader } from "@/lib/engines/imaging/card-reader/read-cards";
import { call, testAccount } from "../http";
import { balanceOf, startTestRunner, stopAll } from "../jobs/bg-remove-harness";
import { pollTask } from "../jobs/face-crop-harness";
import * as h from "../jobs/matching-harness";
import { faceFixture } from "../support/face-fixtures";
import { cameraFrame, plainQrCard } from "../support/picture-day";

// A picture day shot the QR way (a child's card, then the child) and then face-matched:
// the frames the QR sort found to be cards are photos of a printed card, not of the
// child, so matching leaves them out: not charged, not the child's first photo in the
// ZIP. Real card reader and face engine in their worker threads, real runner and ledger.
// Photos: test/fixtures/faces (MIT, ageitgey/face_recognition).
beforeAll(() => startTestRunner());
afterAll(async () => {
  await stopAll();
  await shutDownCardReader();
  await shutDownFaces();
});

describe("face matching after a QR sort", () => {
  it("skips the card frames: charges only the children's photos and files none of the cards", async () => {
    const { token } = await testAccount({ tokens: 100 });
    const agency = await h.makeAgency(token, "Card School");
    const obama = await h.subjectWithPhoto(token, agency.id, "S-OBAMA", "Barack Obama", faceFixture("obama.jpg"));
    await h.subjectWithPhoto(token, agency.id, "S-BIDEN", "Joe Biden", faceFixture("biden.jpg"));
    expect((await h.buildReferences(token, { agency_id: agency.id })).json.embeddings_total).toBe(2);
    // No EXIF times: the file-name order is the capture order.
    const photos = [
      { name: "F1.jpg", bytes: await cameraFrame({ name: "F1.jpg", seconds: null, card: await plainQrCard("S-OBAMA"), fraction: 0.2, photo: 6 }) },
      { name: "F2.jpg", bytes: faceFixture("obama2.jpg") },
      { name: "F3.jpg", bytes: await cameraFrame({ name: "F3.jpg", seconds: null, card: await plainQrCard("S-BIDEN"), fraction: 0.2, photo: 6 }) },
      { name: "F4.jpg", bytes: faceFixture("biden2.jpg") },
    ];
    const { jobId, fileIds } = await h.makeJobWithPhotos(token, agency.id, photos);

    const sort = await call(qrSortRoute, "POST", `/v1/services/studio/agencies/${agency.id}/jobs/${jobId}/qr-sort`, { token, params: { agencyId: String(agency.id), jobId: String(jobId) } });
    expect(sort.status, sort.text).toBe(202);
    expect((await pollTask(token, sort.json.task_id, 240_000)).status).toBe("completed");

    // The Match button's estimate (the job detail's `match`) is counted as the debit counts.
    const detail = await call(jobRoute, "GET", `/v1/services/studio/agencies/${agency.id}/jobs/${jobId}`, { token, params: { agencyId: String(agency.id), jobId: String(jobId) } });
    expect(detail.status, detail.text).toBe(200);
    expect(detail.json).toMatchObject({ file_count: 4, match: { photos: 2, cards_skipped: 2, tokens: 12 } });

    const before = await balanceOf(token);
    const started = await h.startMatchJob(token, { agency_id: agency.id, job_id: jobId });
    expect(started.status, started.text).toBe(200);
    expect(started.json).toMatchObject({ total_files: 2, cards_skipped: 2, tokens_deducted: 12 });
    expect(await balanceOf(token)).toBe(before - 12);
    expect([started.json.total_files, started.json.tokens_deducted]).toEqual([detail.json.match.photos, detail.json.match.tokens]);
    const done = await h.pollMatchJob(token, started.json.match_job_id);
    expect(done).toMatchObject({ status: "completed", total_files: 2, failed: 0 });
    const results = await h.allResults(token, started.json.match_job_id);
    expect(results.map((r) => r.filename).sort()).toEqual(["F2.jpg", "F4.jpg"]);

    // The ZIP: Obama's first photo is his photo, not his card.
    const id = started.json.match_job_id as number;
    const res = await zipRoute.GET(new Request(`http://localhost:3000/v1/services/studio/matching/jobs/${id}/export.zip`, { headers: { authorization: `Bearer ${token}` } }), {
      params: Promise.resolve({ matchJobId: String(id) }),
    });
    const entries = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const obamaFirst = Object.keys(entries).find((n) => n.startsWith("S-OBAMA_") && n.endsWith("_01.jpg"));
    expect(obamaFirst).toBeDefined();
    expect(results.find((r) => r.filename === "F2.jpg")!.faces[0]).toMatchObject({ subject_id: obama.id });

    // Naming only the cards: nothing to match, a 400 that names the field, nothing charged.
    const cards = [fileIds[0]!, fileIds[2]!];
    const balance = await balanceOf(token);
    const refused = await h.startMatchJob(token, { agency_id: agency.id, file_ids: cards });
    expect([refused.status, refused.json.error, refused.json.details?.field]).toEqual([400, "NO_PHOTOS_TO_MATCH", "file_ids"]);
    expect(await balanceOf(token)).toBe(balance);
  }, 300_000);
});
