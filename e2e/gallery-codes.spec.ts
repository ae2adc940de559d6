import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { qrPayload } from "../lib/services/qr/payload";
import { signUp } from "./support/accounts";
import { GALLERY_DAY_PLAN as PLAN, GALLERY_DAY_ROSTER as ROSTER, sortedPictureDay } from "./support/picture-day";

// The codes go out on the cards and the yearbook pose comes back: the studio
// prints its roster's Bulk QR cards with the job's parents' gallery codes
// (read back from the PDF: the code line by pdftotext, both QRs by ZXing),
// publishes with a yearbook deadline, and a parent who scans Ann's card on a
// phone lands in her gallery and picks the yearbook pose, which the studio's
// job page then counts.
const CODE = /Gallery code ([0-9A-Z]{5}-[0-9A-Z]{5})/g;

test("cards carry each child's gallery code; the parent scans one on a phone and picks the yearbook pose the studio sees", async ({ page, browser }) => {
  test.setTimeout(420_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gallery-codes-e2e-"));
  const email = await signUp(page, "Card Code Studio");
  const { agencyId, jobId } = await sortedPictureDay(page.request, email, dir, ROSTER, PLAN);

  // Bulk QR opened for the agency: its roster, and the job whose codes the cards print.
  await page.goto(`/qr?agency=${agencyId}`);
  await expect(page.getByTestId("qr-card-count")).toHaveText(String(ROSTER.length));
  await page.getByLabel("Job reference (printed in every QR)").fill("MAPLE-2026");
  await page.getByLabel("Parents' gallery codes (optional)").selectOption({ label: "Print the codes of job: Picture day" });
  await page.getByRole("button", { name: "Preview first page" }).click();
  await expect(page.getByTestId("qr-preview")).toBeVisible({ timeout: 60_000 });
  await page.getByRole("button", { name: `Generate PDF (${ROSTER.length} tokens)` }).click();
  const link = page.getByTestId("qr-download");
  await expect(link).toBeVisible({ timeout: 60_000 });
  const downloadPromise = page.waitForEvent("download");
  await link.click();
  const pdf = (await (await downloadPromise).path())!;

  // Every card: its code line, its sorting QR and a second QR to the parents' gallery.
  const text = execFileSync("pdftotext", ["-enc", "UTF-8", pdf, "-"], { encoding: "utf8" });
  const printed = [...text.matchAll(CODE)].map((m) => m[1]!);
  expect(printed).toHaveLength(ROSTER.length);
  expect(new Set(printed).size).toBe(ROSTER.length);
  const found = JSON.parse(execFileSync(process.execPath, ["--import", "tsx", "e2e/support/decode-qr-cards.mts", pdf, "4up", "letter", "200"], { encoding: "utf8" })) as string[];
  for (const [id] of ROSTER) expect(found).toContain(qrPayload("MAPLE-2026", id));
  const galleryLinks = found.filter((f) => f.includes("/g?code="));
  expect(galleryLinks.map((l) => new URL(l).searchParams.get("code")).sort()).toEqual([...printed].sort());

  // Publish with a yearbook deadline; the job page lists the same codes the cards carry.
  await page.goto(`/agencies/${agencyId}/jobs/${jobId}`);
  const deadline = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
  await page.getByLabel("Yearbook pose deadline").fill(deadline);
  await page.getByRole("button", { name: "Publish galleries" }).click();
  await expect(page.getByText("3 of 3 previews ready")).toBeVisible({ timeout: 120_000 });
  await expect(page.getByTestId("yearbook-poses")).toContainText(`Yearbook poses chosen: 0 of ${ROSTER.length}`);
  const annRow = page.getByTestId("gallery-codes").getByRole("row").filter({ hasText: "Ann Archer" });
  const annCode = (await annRow.locator("td").nth(1).innerText()).trim();
  expect(printed).toContain(annCode);

  // The parent scans Ann's card: the link opens her gallery on the phone, no code typed.
  const annLink = new URL(galleryLinks.find((l) => new URL(l).searchParams.get("code") === annCode)!);
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const parent = await context.newPage();
  await parent.goto(annLink.pathname + annLink.search);
  await expect(parent.getByRole("heading", { name: "Ann Archer's photos" })).toBeVisible({ timeout: 30_000 });
  await parent.getByTestId("photo-grid").getByRole("img").nth(1).click();
  const pose = parent.getByTestId("yearbook-pose");
  await expect(pose).toContainText("You can choose until");
  await pose.getByRole("button", { name: "Use for the yearbook" }).tap();
  await expect(pose).toContainText("✓ This is the yearbook pose");
  await parent.screenshot({ path: path.join(dir, "yearbook-pose-390.png"), fullPage: true });
  await context.close();

  // The studio's job page counts it.
  await page.reload();
  await expect(page.getByTestId("yearbook-poses")).toContainText(`Yearbook poses chosen: 1 of ${ROSTER.length}`, { timeout: 30_000 });
  console.log(`screenshots in ${dir}`);
});
