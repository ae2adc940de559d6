import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { E2E_PASSWORD, signUp } from "./support/accounts";
import { ok } from "./support/expect-status";

// A parent on a phone: the studio sorts a picture day (cards from our Bulk QR
// held up in real photos, sorted by the job), publishes the galleries from the
// job page and reads the codes there; the parent enters Ann's code on /g, sees
// her photos as pictures (and the group photo), opens one, marks it a
// favourite, and finds it under Favourites. Every parent page says noindex.
test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

const ROSTER = [
  ["S1", "Ann Archer"],
  ["S2", "Ben Brook"],
] as const;
const PLAN = [
  { name: "IMG_0001.jpg", seconds: 0, card: "S1", fraction: 0.15 },
  { name: "IMG_0002.jpg", seconds: 2, photo: 0 },
  { name: "IMG_0003.jpg", seconds: 3, photo: 1, width: 2400 },
  { name: "IMG_0004.jpg", seconds: 10, card: "S2", fraction: 0.15 },
  { name: "IMG_0005.jpg", seconds: 12, photo: 2 },
];

/** Agency, roster, job, cards, frames, upload and QR sort, through the API. */
async function sortedPictureDay(request: APIRequestContext, email: string, dir: string) {
  const { access_token } = await ok<{ access_token: string }>(request.post("/v1/auth/token", { data: { email, password: E2E_PASSWORD } }), 200);
  const headers = { Authorization: `Bearer ${access_token}` };
  const agency = await ok<{ id: number }>(request.post("/v1/services/studio/agencies", { headers, data: { name: "Maple School", agency_type: "school" } }), 201);
  const csv = ["student_id,name", ...ROSTER.map(([id, name]) => `${id},${name}`)].join("\n");
  await ok(request.post(`/v1/services/studio/agencies/${agency.id}/subjects/import`, { headers: { ...headers, "Content-Type": "text/csv" }, data: csv }), 200);
  const job = await ok<{ id: number }>(request.post(`/v1/services/studio/agencies/${agency.id}/jobs`, { headers, data: { name: "Picture day", icp_type: "school" } }), 201);
  const cards = await ok<{ pdf_url: string }>(
    request.post("/v1/services/studio/qr/generate", { headers, data: { job_id: "MAPLE-2026", layout: "4up", page_size: "letter", subjects: ROSTER.map(([student_id, name]) => ({ student_id, name })) } }),
    200,
  );
  const pdf = await request.get(new URL(cards.pdf_url).pathname + new URL(cards.pdf_url).search);
  fs.writeFileSync(path.join(dir, "cards.pdf"), await pdf.body());
  execFileSync(process.execPath, ["--import", "tsx", "e2e/support/picture-day-frames.mts", path.join(dir, "cards.pdf"), ROSTER.map(([id]) => id).join(","), path.join(dir, "frames"), JSON.stringify(PLAN)], { encoding: "utf8" });
  const base = `/v1/services/studio/agencies/${agency.id}/jobs/${job.id}`;
  for (const p of PLAN) {
    await ok(request.post(`${base}/files`, { headers, multipart: { file: { name: p.name, mimeType: "image/jpeg", buffer: fs.readFileSync(path.join(dir, "frames", p.name)) } } }), 201);
  }
  const sort = await ok<{ task_id: string }>(request.post(`${base}/qr-sort`, { headers }), 202);
  await expect(async () => {
    const task = await ok<{ status: string }>(request.get(`/v1/services/studio/jobs/${sort.task_id}`, { headers }), 200);
    expect(task.status).toBe("completed");
  }).toPass({ timeout: 180_000 });
  return { agencyId: agency.id, jobId: job.id };
}

test("a parent on a phone enters the code from the studio's list, sees the photos as pictures and keeps a favourite", async ({ page, browser }) => {
  test.setTimeout(360_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "galleries-e2e-"));
  const email = await signUp(page, "Gallery Studio");
  const { agencyId, jobId } = await sortedPictureDay(page.request, email, dir);

  // The studio publishes from the job page and reads Ann's code there once the previews are ready.
  await page.goto(`/agencies/${agencyId}/jobs/${jobId}`);
  await page.getByRole("button", { name: "Publish galleries" }).click();
  await expect(page.getByText("3 of 3 previews ready")).toBeVisible({ timeout: 120_000 });
  const codes = page.getByTestId("gallery-codes");
  const annRow = codes.getByRole("row").filter({ hasText: "Ann Archer" });
  const code = (await annRow.locator("td").nth(1).innerText()).trim();
  expect(code).toMatch(/^[0-9A-Z]{5}-[0-9A-Z]{5}$/);

  // The parent, on their own phone (no studio session).
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const parent = await context.newPage();
  await parent.goto("/g");
  await expect(parent.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
  await parent.getByLabel("Access code").fill("00000-00000");
  await parent.getByRole("button", { name: "Open gallery" }).click();
  await expect(parent.getByText("This code does not open a gallery")).toBeVisible();
  await parent.getByLabel("Access code").fill(code.toLowerCase().replace("-", " "));
  await parent.getByRole("button", { name: "Open gallery" }).click();

  await expect(parent.getByRole("heading", { name: "Ann Archer's photos" })).toBeVisible();
  await expect(parent.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
  const grid = parent.getByTestId("photo-grid");
  const pictures = grid.getByRole("img");
  await expect(pictures).toHaveCount(2);
  // Real pictures, decoded by the browser, at most 1,200 px.
  await expect.poll(async () => pictures.evaluateAll((imgs) => (imgs as HTMLImageElement[]).map((i) => i.complete && i.naturalWidth > 0 && i.naturalWidth <= 1200))).toEqual([true, true]);
  // The page fits the phone: no sideways scrolling.
  expect(await parent.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
  // Nothing of the studio's other work: Ben's gallery is not offered.
  await expect(parent.getByRole("navigation", { name: "Galleries" }).getByRole("link")).toHaveText(["Ann Archer", "♥ Favourites"]);

  // Open the second (large) photo and mark it.
  await pictures.nth(1).click();
  const large = parent.getByTestId("photo-large");
  await expect(large).toBeVisible();
  await expect.poll(() => large.evaluate((i) => (i as HTMLImageElement).naturalWidth)).toBe(1200);
  await parent.getByRole("button", { name: "Add to favourites" }).tap();
  await expect(parent.getByRole("button", { name: "Remove from favourites" })).toBeVisible();
  await parent.getByRole("link", { name: "← Back" }).click();
  await parent.getByRole("link", { name: "♥ Favourites" }).click();
  await expect(parent.getByRole("heading", { name: "Favourites" })).toBeVisible();
  await expect(parent.getByTestId("photo-grid").getByRole("img")).toHaveCount(1);
  await expect(parent.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
  await parent.screenshot({ path: path.join(dir, "favourites-390.png"), fullPage: true });

  // The same gallery at laptop width: four across, still pictures.
  await parent.setViewportSize({ width: 1280, height: 800 });
  await parent.getByRole("link", { name: "Ann Archer" }).click();
  await expect(parent.getByTestId("photo-grid").getByRole("img")).toHaveCount(2);
  await parent.screenshot({ path: path.join(dir, "gallery-1280.png"), fullPage: true });
  console.log(`screenshots in ${dir}`);
  await context.close();
});
