import fs from "node:fs";
import path from "node:path";
import { unzipSync } from "fflate";
import Papa from "papaparse";
import { expect, test, type APIRequestContext, type Download } from "@playwright/test";
import { E2E_PASSWORD, grantTokens, signUp } from "./support/accounts";
import { ok } from "./support/expect-status";

// A match job reviewed by mouse with the on-screen buttons only (accept, not this person,
// nobody, previous / next), then its CSV and its ZIP of each child's photos downloaded
// from the page and read back. The roster and the match job are made through the API
// (e2e/matching.spec.ts drives those pages); photos: test/fixtures/faces (MIT).
const photo = (name: string) => ({ name, mimeType: "image/jpeg", buffer: fs.readFileSync(path.resolve(process.cwd(), "test/fixtures/faces", name)) });

/** Roster, consent, references and a finished match job, as a third party would make them (Bearer token). */
async function matchedJob(request: APIRequestContext, email: string): Promise<number> {
  const { access_token } = await ok<{ access_token: string }>(request.post("/v1/auth/token", { data: { email, password: E2E_PASSWORD } }), 200);
  const headers = { Authorization: `Bearer ${access_token}` };
  const post = (url: string, body: { data?: unknown; multipart?: Record<string, ReturnType<typeof photo>> }) => request.post(url, { headers, ...body } as never);
  const agency = await ok<{ id: number }>(post("/v1/services/studio/agencies", { data: { name: "Hillside Middle", agency_type: "school" } }), 201);
  await ok(request.patch(`/v1/services/studio/agencies/${agency.id}`, { headers, data: { face_matching_enabled: true, consent_confirmed: true } }), 200);
  // S-3 is the same child entered twice (S-1's portrait): his photos are too close to call, so
  // they wait for review with two candidates, and "not this person" has someone to go to.
  for (const [studentId, name, file] of [["S-1", "Barack Obama", "obama.jpg"], ["S-2", "Joe Biden", "biden.jpg"], ["S-3", "Barry Obama", "obama.jpg"]] as const) {
    const up = await ok<{ url: string }>(post("/v1/uploads", { multipart: { file: photo(file) } }), 201);
    await ok(post(`/v1/services/studio/agencies/${agency.id}/subjects`, { data: { student_id: studentId, name, reference_photo_url: up.url } }), 201);
  }
  await ok(post("/v1/services/studio/matching/references", { data: { agency_id: agency.id } }), 200);
  const job = await ok<{ id: number }>(post(`/v1/services/studio/agencies/${agency.id}/jobs`, { data: { name: "Class photos", icp_type: "school" } }), 201);
  for (const file of ["obama2.jpg", "obama3.jpg", "obama-1080p.jpg", "biden2.jpg"]) {
    await ok(post(`/v1/services/studio/agencies/${agency.id}/jobs/${job.id}/files`, { multipart: { file: photo(file) } }), 201);
  }
  const match = await ok<{ match_job_id: number }>(post("/v1/services/studio/matching/match-job", { data: { agency_id: agency.id, job_id: job.id } }), 200);
  return match.match_job_id;
}

const read = async (d: Download) => fs.readFileSync((await d.path())!);

test("review by mouse with the on-screen buttons, then download the CSV and the photos by child and read them back", async ({ page }) => {
  test.setTimeout(240_000);
  const email = await signUp(page, "Hillside Photo");
  await grantTokens(page.request, email, 100);
  const matchJobId = await matchedJob(page.request, email);

  await page.goto(`/matching/${matchJobId}`);
  await expect(page.getByText(/threshold 0\.85 · 24 tokens · completed/)).toBeVisible({ timeout: 120_000 });
  const count = async (k: string) => Number(await page.getByTestId(`count-${k}`).innerText());
  // Obama's three photos wait for review (two roster entries, one face); Biden's older one may too.
  await expect.poll(() => count("needs_review")).toBeGreaterThanOrEqual(3);
  const [review, matched, unmatched] = [await count("needs_review"), await count("matched"), await count("unmatched")];
  const position = page.getByTestId("queue-position");
  const verdict = page.getByTestId("face-verdict");
  await expect(position).toContainText(`Face 1 of ${review}`);
  await expect(page.getByRole("button", { name: "Previous face" })).toBeDisabled();

  // Accept: the engine's candidate; the queue moves on.
  await page.getByRole("button", { name: /^Accept/ }).click();
  await expect.poll(() => count("matched")).toBe(matched + 1);
  await expect(position).toContainText(`Face 2 of ${review}`);
  // Previous: back to the face just decided, which shows the decision; next returns.
  await page.getByRole("button", { name: "Previous face" }).click();
  await expect(position).toContainText(`Face 1 of ${review}`);
  await expect(verdict).toContainText("by you (accepted)");
  await page.getByRole("button", { name: "Next face" }).click();
  await expect(position).toContainText(`Face 2 of ${review}`);

  // Not this person: the next candidate (the other roster entry) is only offered, named, with
  // their portrait; nothing is filed under them until the reviewer confirms.
  const before = await verdict.locator("p").first().innerText();
  await page.getByRole("button", { name: /^Not this person/ }).click();
  await expect(verdict).toContainText("Is this ");
  await expect(position).toContainText(`Face 2 of ${review}`);
  expect(await count("matched")).toBe(matched + 1);
  // The engine's "why" was about its own proposal: gone once the reviewer has decided.
  await expect(page.getByTestId("review-reason")).toHaveCount(0);
  await expect(page.getByTestId("roster-portraits").getByRole("img", { name: /Reference portrait of/ }).first()).toBeVisible();
  await page.getByRole("button", { name: /^Confirm / }).click();
  await expect.poll(() => count("matched")).toBe(matched + 2);
  await expect(position).toContainText(`Face 3 of ${review}`);
  await page.getByRole("button", { name: "Previous face" }).click();
  await expect(verdict).toContainText("by you (accepted)");
  expect(await verdict.locator("p").first().innerText()).not.toBe(before);
  await page.getByRole("button", { name: "Next face" }).click();

  // Nobody: no one on the roster.
  await page.getByRole("button", { name: /^Nobody/ }).click();
  await expect.poll(() => count("unmatched")).toBe(unmatched + 1);
  expect(await count("needs_review")).toBe(review - 3);
  const matchedNow = await count("matched");

  // The CSV, as the reviewer left the job.
  const csvDownload = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download CSV" }).click();
  const csv = await csvDownload;
  expect(csv.suggestedFilename()).toBe(`match-job-${matchJobId}.csv`);
  const csvText = (await read(csv)).toString("utf8");
  const rows = Papa.parse<Record<string, string>>(csvText.trim(), { header: true }).data;
  expect(rows).toHaveLength(4);
  expect(rows.map((r) => r.decided_by).sort()).toEqual(expect.arrayContaining(["reviewer (accepted)", "reviewer (nobody)"]));

  // The ZIP: the same CSV, and one JPEG per matched photo (all solo photos here), named for the lab.
  const zipDownload = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download photos (ZIP)" }).click();
  const zipped = await zipDownload;
  expect(zipped.suggestedFilename()).toBe(`match-job-${matchJobId}.zip`);
  const entries = unzipSync(new Uint8Array(await read(zipped)));
  expect(new TextDecoder().decode(entries[`match-job-${matchJobId}.csv`])).toBe(csvText);
  const photos = Object.keys(entries).filter((n) => n.endsWith(".jpg"));
  expect(photos).toHaveLength(matchedNow);
  expect(Object.keys(entries)).toHaveLength(matchedNow + 1);
  for (const name of photos) {
    expect(name).toMatch(/^S-[123]_(Obama_Barack|Biden_Joe|Obama_Barry)_\d{2}\.jpg$/);
    expect([...entries[name]!.subarray(0, 3)], name).toEqual([0xff, 0xd8, 0xff]);
  }
  // Each matched row of the CSV is one photo in the ZIP, under its child's student id.
  const matchedRows = rows.filter((r) => r.decision === "matched");
  expect(matchedRows).toHaveLength(matchedNow);
  for (const id of ["S-1", "S-2", "S-3"]) expect(photos.filter((n) => n.startsWith(`${id}_`)).length, id).toBe(matchedRows.filter((r) => r.student_id === id).length);
});

/**
 * A roster child with two uploaded portraits (POST .../portraits, no reference_photo_url)
 * and the same child entered again with one: the review shows each child's own portraits,
 * and "not this person" offers the other entry for confirmation, on a phone too.
 */
test("on a 390 px phone: the roster portraits of the child shown, and 'not this person' offers the next child to confirm", async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 390, height: 844 });
  const email = await signUp(page, "Portrait Photo");
  await grantTokens(page.request, email, 100);
  const { access_token } = await ok<{ access_token: string }>(page.request.post("/v1/auth/token", { data: { email, password: E2E_PASSWORD } }), 200);
  const headers = { Authorization: `Bearer ${access_token}` };
  const post = (url: string, body: { data?: unknown; multipart?: Record<string, ReturnType<typeof photo>> }) => page.request.post(url, { headers, ...body } as never);
  const agency = await ok<{ id: number }>(post("/v1/services/studio/agencies", { data: { name: "Brookside", agency_type: "school" } }), 201);
  await ok(page.request.patch(`/v1/services/studio/agencies/${agency.id}`, { headers, data: { face_matching_enabled: true, consent_confirmed: true } }), 200);
  const barack = await ok<{ id: string }>(post(`/v1/services/studio/agencies/${agency.id}/subjects`, { data: { student_id: "S-1", name: "Barack Obama" } }), 201);
  for (const file of ["obama.jpg", "obama3.jpg"]) await ok(post(`/v1/services/studio/agencies/${agency.id}/subjects/${barack.id}/portraits`, { multipart: { file: photo(file) } }), 201);
  const up = await ok<{ url: string }>(post("/v1/uploads", { multipart: { file: photo("obama.jpg") } }), 201);
  await ok(post(`/v1/services/studio/agencies/${agency.id}/subjects`, { data: { student_id: "S-3", name: "Barry Obama", reference_photo_url: up.url } }), 201);
  await ok(post("/v1/services/studio/matching/references", { data: { agency_id: agency.id } }), 200);
  const job = await ok<{ id: number }>(post(`/v1/services/studio/agencies/${agency.id}/jobs`, { data: { name: "Portraits", icp_type: "school" } }), 201);
  await ok(post(`/v1/services/studio/agencies/${agency.id}/jobs/${job.id}/files`, { multipart: { file: photo("obama2.jpg") } }), 201);
  const match = await ok<{ match_job_id: number }>(post("/v1/services/studio/matching/match-job", { data: { agency_id: agency.id, job_id: job.id } }), 200);

  await page.goto(`/matching/${match.match_job_id}`);
  await expect(page.getByText(/threshold 0\.85 · 6 tokens · completed/)).toBeVisible({ timeout: 120_000 });
  const count = async (k: string) => Number(await page.getByTestId(`count-${k}`).innerText());
  await expect.poll(() => count("needs_review")).toBe(1);
  const verdict = page.getByTestId("face-verdict");
  const portraits = page.getByTestId("roster-portraits");
  // Whichever entry is shown, its own portraits: two for Barack (uploaded), one for Barry (reference_photo_url).
  const portraitsMatchChild = async () => {
    const name = await verdict.locator("p").first().innerText();
    await expect(portraits).toHaveAttribute("data-count", name.includes("Barack") ? "2" : "1");
    await expect(portraits.getByRole("img", { name: /Reference portrait of/ })).toHaveCount(name.includes("Barack") ? 2 : 1);
    return name;
  };
  const first = await portraitsMatchChild();
  await expect(page.getByTestId("review-reason")).toContainText("Why:");

  const notThis = page.getByRole("button", { name: /^Not this person/ });
  await notThis.scrollIntoViewIfNeeded();
  await notThis.click();
  await expect(verdict).toContainText("Is this ");
  const offered = await portraitsMatchChild();
  expect(offered).not.toBe(first);
  await expect(page.getByTestId("review-reason")).toHaveCount(0);
  // Offered, not filed: still in review, nothing matched.
  expect([await count("needs_review"), await count("matched")]).toEqual([1, 0]);
  const confirm = page.getByRole("button", { name: /^Confirm / });
  await confirm.scrollIntoViewIfNeeded();
  await expect(confirm).toBeInViewport();
  // Not the second entry either: nobody is left, the face is unmatched.
  await notThis.click();
  await expect(verdict).toContainText("Nobody on the roster");
  await expect.poll(() => count("unmatched")).toBe(1);
  expect(await count("matched")).toBe(0);
  await expect(page.getByRole("button", { name: /^Accept/ })).toBeDisabled();
});
