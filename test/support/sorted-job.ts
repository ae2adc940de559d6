// A picture day sorted to its children through the real routes: an agency with
// three children, cards (our QR payloads) photographed before each child, a
// group photo, and a finished QR sort run by the embedded job runner (the test
// file starts it). What galleries are published from.
import { expect } from "vitest";
import * as qrSortRoute from "@/app/v1/services/studio/agencies/[agencyId]/jobs/[jobId]/qr-sort/route";
import { call } from "../http";
import { pollTask } from "../jobs/face-crop-harness";
import { addSubject, makeAgency, makeJobWithPhotos } from "../jobs/matching-harness";
import { cameraFrame, plainQrCard } from "./picture-day";

export type SortedJob = {
  agencyId: number;
  jobId: number;
  taskId: string;
  /** Subject ids by student id (S1 Ann, S2 Ben, S3 Cat). */
  subjects: Record<"S1" | "S2" | "S3", string>;
  /** Job file ids by file name. */
  files: Record<string, number>;
  /** Which file names the sort files under each student. */
  expected: Record<"S1" | "S2" | "S3", string[]>;
};

/**
 * 01 card S1, 02–03 Ann; 04 card S2, 05–06 Ben; 07 card S3, 08 Cat; 09 the class
 * photo (filed under Cat by the rules too: the studio names it for the group
 * gallery). No capture times: the file-name order is the capture order. Ann's
 * second photo is 2,400 px wide, bigger than a preview.
 */
export async function sortedPictureDay(token: string, name = "Gallery School"): Promise<SortedJob> {
  const agency = await makeAgency(token, name);
  const subjects = {
    S1: (await addSubject(token, agency.id, { student_id: "S1", name: "Ann Archer" })).json.id,
    S2: (await addSubject(token, agency.id, { student_id: "S2", name: "Ben Brook" })).json.id,
    S3: (await addSubject(token, agency.id, { student_id: "S3", name: "Cat Crane" })).json.id,
  };
  const card = async (file: string, studentId: string) => ({ name: file, bytes: await cameraFrame({ name: file, seconds: null, card: await plainQrCard(studentId), fraction: 0.2, photo: 6 }) });
  const photo = async (file: string, n: number, width?: number) => ({ name: file, bytes: await cameraFrame({ name: file, seconds: null, photo: n, width }) });
  const photos = [
    await card("01.jpg", "S1"),
    await photo("02.jpg", 0),
    await photo("03.jpg", 1, 2400),
    await card("04.jpg", "S2"),
    await photo("05.jpg", 2),
    await photo("06.jpg", 3),
    await card("07.jpg", "S3"),
    await photo("08.jpg", 4),
    await photo("09.jpg", 7),
  ];
  const { jobId, fileIds } = await makeJobWithPhotos(token, agency.id, photos);
  const files = Object.fromEntries(photos.map((p, i) => [p.name, fileIds[i]!]));
  const params = { agencyId: String(agency.id), jobId: String(jobId) };
  const accepted = await call(qrSortRoute, "POST", `/v1/services/studio/agencies/${agency.id}/jobs/${jobId}/qr-sort`, { token, params });
  expect(accepted.status, accepted.text).toBe(202);
  const task = await pollTask(token, accepted.json.task_id, 180_000);
  expect(task.status, JSON.stringify(task)).toBe("completed");
  return { agencyId: agency.id, jobId, taskId: accepted.json.task_id, subjects, files, expected: { S1: ["02.jpg", "03.jpg"], S2: ["05.jpg", "06.jpg"], S3: ["08.jpg", "09.jpg"] } };
}
