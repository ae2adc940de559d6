import fs from "node:fs";
import path from "node:path";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { bearer, grantTokens, signUp } from "./support/accounts";
import { ok } from "./support/expect-status";

// Review by group: Biden is on the roster without a portrait, so the engine files none
// of his faces; they come back as one group of alike faces, filed with one decision and
// put back with undo. Photos: test/fixtures/faces (MIT, ageitgey/face_recognition).
const photo = (name: string) => ({ name, mimeType: "image/jpeg", buffer: fs.readFileSync(path.resolve(process.cwd(), "test/fixtures/faces", name)) });

async function matchedJob(request: APIRequestContext, email: string) {
  const headers = await bearer(request, email);
  const post = (url: string, body: { data?: unknown; multipart?: Record<string, ReturnType<typeof photo>> }) => request.post(url, { headers, ...body } as never);
  const agency = await ok<{ id: number }>(post("/v1/services/studio/agencies", { data: { name: "Hillside School", agency_type: "school" } }), 201);
  await ok(request.patch(`/v1/services/studio/agencies/${agency.id}`, { headers, data: { face_matching_enabled: true, consent_confirmed: true } }), 200);
  const portrait = await ok<{ url: string }>(post("/v1/uploads", { multipart: { file: photo("obama.jpg") } }), 201);
  await ok(post(`/v1/services/studio/agencies/${agency.id}/subjects`, { data: { student_id: "S-1", name: "Barack Obama", reference_photo_url: portrait.url } }), 201);
  await ok(post(`/v1/services/studio/agencies/${agency.id}/subjects`, { data: { student_id: "S-2", name: "Joe Biden" } }), 201);
  await ok(post("/v1/services/studio/matching/references", { data: { agency_id: agency.id } }), 200);
  const job = await ok<{ id: number }>(post(`/v1/services/studio/agencies/${agency.id}/jobs`, { data: { name: "Assembly", icp_type: "school" } }), 201);
  for (const file of ["biden.jpg", "obama2.jpg", "biden2.jpg"]) await ok(post(`/v1/services/studio/agencies/${agency.id}/jobs/${job.id}/files`, { multipart: { file: photo(file) } }), 201);
  const match = await ok<{ match_job_id: number }>(post("/v1/services/studio/matching/match-job", { data: { agency_id: agency.id, job_id: job.id } }), 200);
  return match.match_job_id;
}

test("review by group: one decision files a child's alike faces, undo puts them back", async ({ page }) => {
  test.setTimeout(240_000);
  const email = await signUp(page, "Hillside Photo");
  await grantTokens(page.request, email, 100);
  const matchJobId = await matchedJob(page.request, email);
  await page.goto(`/matching/${matchJobId}`);
  await expect(page.getByText(/· completed/)).toBeVisible({ timeout: 120_000 });
  const count = async (k: string) => Number(await page.getByTestId(`count-${k}`).innerText());
  await expect.poll(() => count("unmatched")).toBe(2);

  await page.getByRole("tab", { name: "Alike faces" }).click();
  const group = page.getByTestId("face-group");
  await expect(group).toHaveCount(1);
  await expect(group.getByRole("heading")).toHaveText("2 faces alike · 2 to decide");
  // The faces are shown as pictures, each cropped to its face.
  await expect(group.getByTestId("face-thumb")).toHaveCount(2);
  await group.getByLabel("All are someone else").selectOption({ label: "Joe Biden (S-2)" });
  await expect(group.getByRole("status")).toContainText("2 faces filed as Joe Biden");
  await expect.poll(() => count("matched")).toBe(3);
  expect(await count("unmatched")).toBe(0);

  await group.getByRole("button", { name: "Undo" }).click();
  await expect.poll(() => count("unmatched")).toBe(2);
  await expect(group.getByRole("button", { name: "Nobody on the roster" })).toBeVisible();
  // The per-face queue reads the decisions made here.
  await page.getByRole("tab", { name: /Unmatched/ }).click();
  await expect(page.getByTestId("queue-position")).toContainText("Face 1 of 2");
});
