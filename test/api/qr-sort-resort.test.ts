import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as qrSortRoute from "@/app/v1/services/studio/agencies/[agencyId]/jobs/[jobId]/qr-sort/route";
import * as resultsRoute from "@/app/v1/services/studio/qr-sort/[taskId]/results/route";
import * as frameRoute from "@/app/v1/services/studio/qr-sort/[taskId]/results/[fileId]/route";
import * as subjectRoute from "@/app/v1/services/studio/agencies/[agencyId]/subjects/[subjectId]/route";
import { shutDownCardReader } from "@/lib/engines/imaging/card-reader/read-cards";
import { call, testAccount } from "../http";
import { startTestRunner, stopAll } from "../jobs/bg-remove-harness";
import { pollTask } from "../jobs/face-crop-harness";
import { addSubject, makeAgency, makeJobWithPhotos } from "../jobs/matching-harness";
import { cameraFrame, plainQrCard } from "../support/picture-day";

// "Sort again" after corrections by hand: the new sort files the corrected
// photos as the photographer did (the newest correction wins), the others by
// the cards, and the job's sort list leads with it so the job page opens it.
beforeAll(() => startTestRunner());
afterAll(async () => {
  await stopAll();
  await shutDownCardReader();
});

const S = "/v1/services/studio";
const sortPath = (agencyId: number, jobId: number) => ({ agencyId: String(agencyId), jobId: String(jobId) });

async function sortAndWait(token: string, agencyId: number, jobId: number) {
  const accepted = await call(qrSortRoute, "POST", `${S}/agencies/${agencyId}/jobs/${jobId}/qr-sort`, { token, params: sortPath(agencyId, jobId) });
  expect(accepted.status, accepted.text).toBe(202);
  const task = await pollTask(token, accepted.json.task_id, 180_000);
  expect(task.status, JSON.stringify(task)).toBe("completed");
  return task;
}

async function filed(token: string, taskId: string) {
  const res = await call(resultsRoute, "GET", `${S}/qr-sort/${taskId}/results?limit=100`, { token, params: { taskId } });
  expect(res.status, res.text).toBe(200);
  return Object.fromEntries(res.json.data.map((r: any) => [r.filename, [r.role, r.student_id, r.manual]]));
}

const reassign = async (token: string, taskId: string, fileId: number, subjectId: string | null) => {
  const res = await call(frameRoute, "PATCH", `${S}/qr-sort/${taskId}/results/${fileId}`, { token, params: { taskId, fileId: String(fileId) }, body: { subject_id: subjectId } });
  expect(res.status, res.text).toBe(200);
};

describe("Sort again", () => {
  it("keeps the hand corrections of the job's earlier sort, the newest one winning, and leads the job's sorts", async () => {
    const { token } = await testAccount({ tokens: 10 });
    const agency = await makeAgency(token, "Resort School");
    const ann = (await addSubject(token, agency.id, { student_id: "S1", name: "Ann Archer" })).json;
    const ben = (await addSubject(token, agency.id, { student_id: "S2", name: "Ben Brook" })).json;
    const cat = (await addSubject(token, agency.id, { student_id: "S3", name: "Cat Crane" })).json;
    // No capture times: the file-name order is the capture order. Cards on a photo of a cat (no face).
    const card = async (name: string, studentId: string) => ({ name, bytes: await cameraFrame({ name, seconds: null, card: await plainQrCard(studentId), fraction: 0.2, photo: 6 }) });
    const photo = async (name: string, n: number) => ({ name, bytes: await cameraFrame({ name, seconds: null, photo: n }) });
    const photos = [await card("01.jpg", "S1"), await photo("02.jpg", 0), await photo("03.jpg", 1), await card("04.jpg", "S2"), await photo("05.jpg", 2), await photo("06.jpg", 3)];
    const { jobId, fileIds } = await makeJobWithPhotos(token, agency.id, photos);
    const id = (name: string) => fileIds[photos.findIndex((p) => p.name === name)]!;

    const first = await sortAndWait(token, agency.id, jobId);
    expect(await filed(token, first.task_id)).toMatchObject({ "03.jpg": ["subject", "S1", false], "05.jpg": ["subject", "S2", false], "06.jpg": ["subject", "S2", false] });
    await reassign(token, first.task_id, id("03.jpg"), ben.id); // Ben stepped in early
    await reassign(token, first.task_id, id("05.jpg"), null); // a test shot: nobody
    await reassign(token, first.task_id, id("06.jpg"), cat.id); // Cat, whose subject is deleted below

    const gone = await call(subjectRoute, "DELETE", `${S}/agencies/${agency.id}/subjects/${cat.id}`, { token, params: { agencyId: String(agency.id), subjectId: cat.id } });
    expect(gone.status, gone.text).toBe(204);
    const second = await sortAndWait(token, agency.id, jobId);
    expect(await filed(token, second.task_id)).toEqual({
      "01.jpg": ["card", "S1", false],
      "02.jpg": ["subject", "S1", false],
      "03.jpg": ["subject", "S2", true],
      "04.jpg": ["card", "S2", false],
      "05.jpg": ["subject", null, true],
      "06.jpg": ["subject", "S2", false], // its correction named a subject no longer on the roster: the rules file it
    });
    expect(second.summary).toMatchObject({ corrected_by_hand: 2, needs_review: 0 });
    const listed = await call(qrSortRoute, "GET", `${S}/agencies/${agency.id}/jobs/${jobId}/qr-sort`, { token, params: sortPath(agency.id, jobId) });
    expect(listed.json.data.map((t: any) => t.task_id)).toEqual([second.task_id, first.task_id]);

    // Corrected again in the second sort: the third follows the newest correction.
    await reassign(token, second.task_id, id("03.jpg"), ann.id);
    const third = await sortAndWait(token, agency.id, jobId);
    expect(await filed(token, third.task_id)).toMatchObject({ "03.jpg": ["subject", "S1", true], "05.jpg": ["subject", null, true] });

    // Another account's sort of the same photos is not theirs to carry over.
    const { token: other } = await testAccount({ tokens: 10 });
    expect((await call(qrSortRoute, "POST", `${S}/agencies/${agency.id}/jobs/${jobId}/qr-sort`, { token: other, params: sortPath(agency.id, jobId) })).status).toBe(404);
  }, 400_000);
});
