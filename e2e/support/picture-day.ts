// A picture day set up through the API, as the QR sort, galleries and money specs
// need it: agency, roster, job, cards from our own Bulk QR cut into real photos
// (e2e/support/picture-day-frames.mts); `sortedPictureDay` also uploads the frames
// and sorts them by QR card.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect, type APIRequestContext } from "@playwright/test";
import { bearer } from "./accounts";
import { ok } from "./expect-status";

/** One frame of the day: a card held up (`card`: its student id) or a portrait (`photo`: which source photo); see picture-day-frames.mts. */
export type FramePlan = { name: string; seconds: number; card?: string; photo?: number; fraction?: number; angle?: number; quality?: number; orientation?: number; blur?: number; width?: number };
export type PictureDay = { agencyId: number; jobId: number; headers: Record<string, string>; frames: string };

/** Ann (two photos) and Ben (one), their cards held up first: the parent gallery specs' and the paint bench's day. */
export const GALLERY_DAY_ROSTER = [
  ["S1", "Ann Archer"],
  ["S2", "Ben Brook"],
] as const;
export const GALLERY_DAY_PLAN: FramePlan[] = [
  { name: "IMG_0001.jpg", seconds: 0, card: "S1", fraction: 0.15 },
  { name: "IMG_0002.jpg", seconds: 2, photo: 0 },
  { name: "IMG_0003.jpg", seconds: 3, photo: 1, width: 2400 },
  { name: "IMG_0004.jpg", seconds: 10, card: "S2", fraction: 0.15 },
  { name: "IMG_0005.jpg", seconds: 12, photo: 2 },
];

/** Agency, roster (`grade` when given), job and the frames in `dir/frames`, cards printed by Bulk QR. */
export async function pictureDay(request: APIRequestContext, email: string, dir: string, roster: readonly (readonly [string, string])[], plan: FramePlan[], opts: { grade?: string } = {}): Promise<PictureDay> {
  const headers = await bearer(request, email);
  const agency = await ok<{ id: number }>(request.post("/v1/services/studio/agencies", { headers, data: { name: "Maple School", agency_type: "school" } }), 201);
  const csv = [`student_id,name${opts.grade ? ",grade" : ""}`, ...roster.map(([id, name]) => `${id},${name}${opts.grade ? `,${opts.grade}` : ""}`)].join("\n");
  await ok(request.post(`/v1/services/studio/agencies/${agency.id}/subjects/import`, { headers: { ...headers, "Content-Type": "text/csv" }, data: csv }), 200);
  const job = await ok<{ id: number }>(request.post(`/v1/services/studio/agencies/${agency.id}/jobs`, { headers, data: { name: "Picture day", icp_type: "school" } }), 201);
  const cards = await ok<{ pdf_url: string }>(
    request.post("/v1/services/studio/qr/generate", { headers, data: { job_id: "MAPLE-2026", layout: "4up", page_size: "letter", subjects: roster.map(([student_id, name]) => ({ student_id, name })) } }),
    200,
  );
  const pdf = await request.get(new URL(cards.pdf_url).pathname + new URL(cards.pdf_url).search);
  expect(pdf.status()).toBe(200);
  fs.writeFileSync(path.join(dir, "cards.pdf"), await pdf.body());
  const frames = path.join(dir, "frames");
  execFileSync(process.execPath, ["--import", "tsx", "e2e/support/picture-day-frames.mts", path.join(dir, "cards.pdf"), roster.map(([id]) => id).join(","), frames, JSON.stringify(plan)], { encoding: "utf8" });
  return { agencyId: agency.id, jobId: job.id, headers, frames };
}

/** The picture day with its frames uploaded and sorted by QR card through the API (waits for the sort). */
export async function sortedPictureDay(request: APIRequestContext, email: string, dir: string, roster: readonly (readonly [string, string])[], plan: FramePlan[]): Promise<PictureDay> {
  const day = await pictureDay(request, email, dir, roster, plan);
  const { headers } = day;
  const base = `/v1/services/studio/agencies/${day.agencyId}/jobs/${day.jobId}`;
  for (const p of plan) {
    await ok(request.post(`${base}/files`, { headers, multipart: { file: { name: p.name, mimeType: "image/jpeg", buffer: fs.readFileSync(path.join(day.frames, p.name)) } } }), 201);
  }
  const sort = await ok<{ task_id: string }>(request.post(`${base}/qr-sort`, { headers }), 202);
  await expect(async () => {
    const task = await ok<{ status: string }>(request.get(`/v1/services/studio/jobs/${sort.task_id}`, { headers }), 200);
    expect(task.status).toBe("completed");
  }).toPass({ timeout: 180_000 });
  return day;
}
