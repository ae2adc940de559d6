import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { unzipSync } from "fflate";
import Papa from "papaparse";
import { expect, test } from "@playwright/test";
import { signUp } from "./support/accounts";
import { pictureDay } from "./support/picture-day";

// Picture day in the studio: cards printed by our own Bulk QR (through the API),
// held up in real photos (e2e/support/picture-day-frames.mts), uploaded on the job
// page, sorted from it; the contact sheet shows each child's run as a band with
// the card marked, one frame is moved with its menu and one by dragging it, and
// the CSV, lab ZIP and PSPA package downloaded from the page say where each photo went.
const ROSTER = [
  ["S1", "Ann Archer"],
  ["S2", "Ben Brook"],
  ["S3", "Cat Crane"],
] as const;
/** Capture order = file-name order here; cards at an angle, small, one stored sideways with EXIF orientation 6. */
const PLAN = [
  { name: "IMG_0001.jpg", seconds: 0, photo: 5 },
  { name: "IMG_0002.jpg", seconds: 10, card: "S1", fraction: 0.12, angle: 8, quality: 75 },
  { name: "IMG_0003.jpg", seconds: 12, photo: 0 },
  { name: "IMG_0004.jpg", seconds: 13, photo: 2 },
  { name: "IMG_0005.jpg", seconds: 20, card: "S2", fraction: 0.1, angle: -12, orientation: 6 },
  { name: "IMG_0006.jpg", seconds: 22, photo: 1 },
  { name: "IMG_0007.jpg", seconds: 23, photo: 3 },
  { name: "IMG_0008.jpg", seconds: 30, card: "S3", fraction: 0.08, blur: 0.5 },
  { name: "IMG_0009.jpg", seconds: 31, photo: 4 },
];

test("QR sort: upload a picture day, sort it from the job page, see each child's run, move two frames, export, sort again keeping the moves", async ({ page }) => {
  test.setTimeout(480_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "qr-sort-e2e-"));
  const email = await signUp(page, "Picture Day Studio");
  const { agencyId, jobId } = await pictureDay(page.request, email, dir, ROSTER, PLAN, { grade: "4" });

  await page.goto(`/agencies/${agencyId}/jobs/${jobId}`);
  await page.getByLabel("Photos to upload").setInputFiles(PLAN.map((p) => path.join(dir, "frames", p.name)));
  await expect(page.getByText("Uploaded")).toHaveCount(PLAN.length, { timeout: 60_000 });

  await page.getByRole("button", { name: `Sort ${PLAN.length} photos by QR card` }).click();
  const status = page.getByTestId("qr-sort-status");
  await expect(status).toContainText(/Reading cards|Sorted/);
  await expect(status).toContainText(`Sorted ${PLAN.length} photos: 3 cards, 3 children, 1 to review.`, { timeout: 180_000 });
  await page.getByRole("link", { name: "Open the contact sheet" }).click();
  await expect(page).toHaveURL(new RegExp(`/agencies/${agencyId}/jobs/${jobId}/qr-sort/task_`));

  // The bands in capture order, each card frame marked with the child it names.
  const sheet = page.getByTestId("contact-sheet");
  const bands = sheet.getByTestId("run-band");
  await expect(bands.locator("h3")).toHaveText([/^Before the first card · 1 photo/, /^Ann Archer · 3 photos/, /^Ben Brook · 3 photos/, /^Cat Crane · 2 photos/]);
  await expect(sheet.getByTestId("card-badge")).toHaveText(["Card · Ann Archer", "Card · Ben Brook", "Card · Cat Crane"]);
  await expect(sheet.getByRole("img")).toHaveCount(PLAN.length);
  const frameIn = (band: string, file: string) => page.getByRole("region", { name: `Run: ${band}` }).locator(`[data-filename="${file}"]`);
  await expect(frameIn("Ann Archer", "IMG_0002.jpg")).toBeVisible();
  // The bands differ in colour.
  const colours = await bands.evaluateAll((els) => els.map((e) => getComputedStyle(e).borderLeftColor));
  expect(new Set(colours.slice(1)).size).toBe(3);
  await page.screenshot({ path: "test-results/qr-sort-sheet.png", fullPage: true });

  // What needs review: only the frame before the first card.
  await page.getByLabel("Only what needs review").check();
  await expect(sheet.getByTestId("sheet-frame")).toHaveCount(1);
  await expect(sheet.getByTestId("review-reasons")).toContainText("before the first card");
  await page.getByLabel("Only what needs review").uncheck();
  await expect(sheet.getByTestId("sheet-frame")).toHaveCount(PLAN.length);

  // Without dragging (touch, keyboard): Ben's last frame is Cat's, and joins her run.
  await page.getByLabel("Child for IMG_0007.jpg").selectOption({ label: "Cat Crane (S3)" });
  await expect(frameIn("Cat Crane", "IMG_0007.jpg")).toContainText("(moved by hand)");
  await expect(bands.locator("h3")).toHaveText([/^Before the first card/, /^Ann Archer · 3/, /^Ben Brook · 2/, /^Cat Crane · 3/]);
  // Dragging: Ann's last frame onto Ben's band. Both in view first: Chromium picks the dragged
  // element at the press, and a scroll between the press and the move would pick another.
  await page.setViewportSize({ width: 1280, height: 1800 });
  await frameIn("Ann Archer", "IMG_0004.jpg").dragTo(page.getByRole("region", { name: "Run: Ben Brook" }));
  await expect(frameIn("Ben Brook", "IMG_0004.jpg")).toContainText("(moved by hand)");
  await expect(bands.locator("h3")).toHaveText([/^Before the first card/, /^Ann Archer · 2/, /^Ben Brook · 3/, /^Cat Crane · 3/]);

  // The CSV from the page says who each photo went to, and who decided.
  const csvDownload = page.waitForEvent("download");
  await page.getByRole("link", { name: "CSV" }).click();
  const csv = Papa.parse<Record<string, string>>(fs.readFileSync((await (await csvDownload).path())!, "utf8"), { header: true, skipEmptyLines: true });
  const row = (file: string) => csv.data.find((r) => r.file_name === file)!;
  expect(csv.data.map((r) => r.file_name)).toEqual(PLAN.map((p) => p.name));
  expect(row("IMG_0007.jpg")).toMatchObject({ subject: "Cat Crane", student_id: "S3", role: "subject", decided_by: "photographer" });
  expect(row("IMG_0004.jpg")).toMatchObject({ subject: "Ben Brook", student_id: "S2", decided_by: "photographer" });
  expect(row("IMG_0005.jpg")).toMatchObject({ subject: "Ben Brook", role: "card", decided_by: "qr_card" });
  expect(row("IMG_0001.jpg")).toMatchObject({ subject: "", role: "before_first_card" });

  // The lab ZIP: every portrait (no card frames, nothing before the first card) named for its child.
  const zipDownload = page.waitForEvent("download");
  await page.getByRole("link", { name: "Lab ZIP" }).click();
  const names = Object.keys(unzipSync(new Uint8Array(fs.readFileSync((await (await zipDownload).path())!)))).sort();
  expect(names).toEqual(["S1_Archer_Ann_01.jpg", "S2_Brook_Ben_01.jpg", "S2_Brook_Ben_02.jpg", "S3_Crane_Cat_01.jpg", "S3_Crane_Cat_02.jpg"]);

  // The PSPA package a yearbook imports: INDEX.TXT, one row per child, each portrait present, 4:5.
  const pspaDownload = page.waitForEvent("download");
  await page.getByRole("link", { name: "PSPA package" }).click();
  const pspa = unzipSync(new Uint8Array(fs.readFileSync((await (await pspaDownload).path())!)));
  const index = new TextDecoder().decode(pspa["INDEX.TXT"]).trimEnd().split("\r\n").map((l) => l.split("\t"));
  expect(index.map((r) => [r[0], r[3], r[4], r[5]])).toEqual([
    ["Maple School", "4", "Archer", "Ann"],
    ["Maple School", "4", "Brook", "Ben"],
    ["Maple School", "4", "Crane", "Cat"],
  ]);
  for (const r of index) {
    expect(pspa[`${r[1]}/${r[2]}`], `${r[1]}/${r[2]}`).toBeDefined();
    const [w, h] = r[12]!.split("x").map(Number);
    expect(w! * 5).toBe(h! * 4);
    expect(w).toBeGreaterThanOrEqual(640);
  }

  // Sorting again keeps both moves, says so before the click, and the job page opens the new sort (the first stays listed).
  const firstSheet = page.url();
  await page.goto(`/agencies/${agencyId}/jobs/${jobId}`);
  await expect(page.getByTestId("qr-sort-keeps")).toHaveText("Sorting again keeps your 2 corrections by hand.");
  await page.getByRole("button", { name: `Sort again (${PLAN.length} photos)` }).click();
  await expect(status).toContainText(`Sorted ${PLAN.length} photos: 3 cards, 3 children, 1 to review.`, { timeout: 180_000 });
  await expect(page.getByText("Earlier sorts (1)")).toBeVisible();
  await page.getByRole("link", { name: "Open the contact sheet" }).click();
  await expect(page).toHaveURL(new RegExp(`/agencies/${agencyId}/jobs/${jobId}/qr-sort/task_`));
  expect(page.url()).not.toBe(firstSheet);
  await expect(frameIn("Cat Crane", "IMG_0007.jpg")).toContainText("(moved by hand)");
  await expect(frameIn("Ben Brook", "IMG_0004.jpg")).toContainText("(moved by hand)");
  await expect(bands.locator("h3")).toHaveText([/^Before the first card/, /^Ann Archer · 2/, /^Ben Brook · 3/, /^Cat Crane · 3/]);
  fs.rmSync(dir, { recursive: true, force: true });
});
