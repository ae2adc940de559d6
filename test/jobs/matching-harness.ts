import * as agencies from "@/app/v1/services/studio/agencies/route";
import * as agency from "@/app/v1/services/studio/agencies/[agencyId]/route";
import * as exportRoute from "@/app/v1/services/studio/matching/jobs/[matchJobId]/export/route";
import * as jobs from "@/app/v1/services/studio/agencies/[agencyId]/jobs/route";
import * as files from "@/app/v1/services/studio/agencies/[agencyId]/jobs/[jobId]/files/route";
import * as subjectsRoute from "@/app/v1/services/studio/agencies/[agencyId]/subjects/route";
import * as subjectRoute from "@/app/v1/services/studio/agencies/[agencyId]/subjects/[subjectId]/route";
import * as references from "@/app/v1/services/studio/matching/references/route";
import * as matchJob from "@/app/v1/services/studio/matching/match-job/route";
import * as matchJobRoute from "@/app/v1/services/studio/matching/jobs/[matchJobId]/route";
import * as matchJobsRoute from "@/app/v1/services/studio/matching/jobs/route";
import * as resultsRoute from "@/app/v1/services/studio/matching/jobs/[matchJobId]/results/route";
import * as faceRoute from "@/app/v1/services/studio/matching/jobs/[matchJobId]/faces/[faceId]/route";
import { call } from "../http";
import { upload } from "./bg-remove-harness";
import { pollTask, pollUntilEnded } from "./face-crop-harness";

// Face matching through its real routes: a roster with reference photos, a job
// of photos, references, match jobs, results and reviews.

const A = "/v1/services/studio/agencies";
const M = "/v1/services/studio/matching";

/** An agency with face matching turned on, its consent confirmed (new agencies start with it off). */
export async function makeAgency(token: string, name = "Maple School") {
  const res = await call(agencies, "POST", A, { token, body: { name, agency_type: "school" } });
  if (res.status !== 201) throw new Error(`agency: ${res.status} ${res.text}`);
  const id = (res.json as { id: number }).id;
  const on = await patchAgency(token, id, { face_matching_enabled: true, consent_confirmed: true });
  if (on.status !== 200) throw new Error(`consent: ${on.status} ${on.text}`);
  return { id };
}

export async function addSubject(token: string, agencyId: number, body: Record<string, unknown>) {
  return call(subjectsRoute, "POST", `${A}/${agencyId}/subjects`, { token, params: { agencyId: String(agencyId) }, body });
}

/** A subject whose reference photo is one of the account's uploads. */
export async function subjectWithPhoto(token: string, agencyId: number, studentId: string, name: string, photo: Buffer, extra: Record<string, unknown> = {}) {
  const url = await upload(token, photo, `${studentId}.jpg`, "image/jpeg");
  const res = await addSubject(token, agencyId, { student_id: studentId, name, reference_photo_url: url, ...extra });
  if (res.status !== 201) throw new Error(`subject: ${res.status} ${res.text}`);
  return res.json as { id: string; student_id: string };
}

export const patchSubject = (token: string, agencyId: number, subjectId: string, body: unknown) =>
  call(subjectRoute, "PATCH", `${A}/${agencyId}/subjects/${subjectId}`, { token, params: { agencyId: String(agencyId), subjectId }, body });
export const deleteSubject = (token: string, agencyId: number, subjectId: string) =>
  call(subjectRoute, "DELETE", `${A}/${agencyId}/subjects/${subjectId}`, { token, params: { agencyId: String(agencyId), subjectId } });
export const getAgency = (token: string, agencyId: number) => call(agency, "GET", `${A}/${agencyId}`, { token, params: { agencyId: String(agencyId) } });
export const patchAgency = (token: string, agencyId: number, body: unknown) => call(agency, "PATCH", `${A}/${agencyId}`, { token, params: { agencyId: String(agencyId) }, body });

export async function makeJobWithPhotos(token: string, agencyId: number, photos: { name: string; bytes: Buffer }[]) {
  const job = await call(jobs, "POST", `${A}/${agencyId}/jobs`, { token, params: { agencyId: String(agencyId) }, body: { name: "Picture day", icp_type: "school" } });
  if (job.status !== 201) throw new Error(`job: ${job.status} ${job.text}`);
  const ids: number[] = [];
  for (let at = 0; at < photos.length; at += 20) {
    const form = new FormData();
    for (const p of photos.slice(at, at + 20)) form.append("file", new File([new Uint8Array(p.bytes)], p.name, { type: "image/jpeg" }));
    const res = await call(files, "POST", `${A}/${agencyId}/jobs/${job.json.id}/files`, { token, params: { agencyId: String(agencyId), jobId: String(job.json.id) }, rawBody: form });
    if (res.status !== 201) throw new Error(`files: ${res.status} ${res.text}`);
    ids.push(...res.json.files.map((f: { id: number }) => f.id));
  }
  return { jobId: job.json.id as number, fileIds: ids };
}

export const buildReferences = (token: string, body: unknown) => call(references, "POST", `${M}/references`, { token, body });
export const deleteReferences = (token: string, agencyId: number | string) => call(references, "DELETE", `${M}/references?agency_id=${agencyId}`, { token });
export const startMatchJob = (token: string, body: unknown) => call(matchJob, "POST", `${M}/match-job`, { token, body });
export const listMatchJobs = (token: string, query = "") => call(matchJobsRoute, "GET", `${M}/jobs${query}`, { token });
export const getMatchJob = (token: string, id: number) => call(matchJobRoute, "GET", `${M}/jobs/${id}`, { token, params: { matchJobId: String(id) } });
export const getResults = (token: string, id: number, query = "") => call(resultsRoute, "GET", `${M}/jobs/${id}/results${query}`, { token, params: { matchJobId: String(id) } });
export const review = (token: string, id: number, faceId: string, body: unknown) =>
  call(faceRoute, "PATCH", `${M}/jobs/${id}/faces/${faceId}`, { token, params: { matchJobId: String(id), faceId }, body });
export { getTask as getStudioTask } from "./face-crop-harness";

export const exportCsv = (token: string, id: number) => call(exportRoute, "GET", `${M}/jobs/${id}/export`, { token, params: { matchJobId: String(id) } });
export const pollMatchJob = (token: string, id: number, timeoutMs = 180_000) => pollUntilEnded(() => getMatchJob(token, id), `match job ${id}`, timeoutMs);
export const pollStudioTask = (token: string, taskId: string) => pollTask(token, taskId, 180_000);

/** Every result of a match job, all pages. */
export async function allResults(token: string, id: number, query = "") {
  const out: any[] = [];
  for (let page = 1; ; page++) {
    const res = await getResults(token, id, `?limit=100&page=${page}${query}`);
    if (res.status !== 200) throw new Error(`results: ${res.status} ${res.text}`);
    out.push(...res.json.data);
    if (!res.json.links.next) return out;
  }
}
