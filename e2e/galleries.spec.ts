import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { signUp } from "./support/accounts";
import { GALLERY_DAY_PLAN as PLAN, GALLERY_DAY_ROSTER as ROSTER, sortedPictureDay } from "./support/picture-day";

// A parent on a phone: the studio sorts a picture day (cards from our Bulk QR
// held up in real photos, sorted by the job), publishes the galleries from the
// job page and reads the codes there; the parent enters Ann's code on /g, sees
// her photos as pictures (and the group photo), opens one, marks it a
// favourite, and finds it under Favourites. Every parent page says noindex.
test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });


test("a parent on a phone enters the code from the studio's list, sees the photos as pictures and keeps a favourite", async ({ page, browser }) => {
  test.setTimeout(360_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "galleries-e2e-"));
  const email = await signUp(page, "Gallery Studio");
  const { agencyId, jobId } = await sortedPictureDay(page.request, email, dir, ROSTER, PLAN);

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
  // Not ready to order: one reminder before the gallery closes, to an address the roster does not have.
  await parent.getByLabel(/Get one e-mail before this gallery closes/).fill("Ann.Parent@Example.com");
  await parent.getByRole("button", { name: "Remind me" }).tap();
  await expect(parent.getByTestId("reminder-saved")).toContainText("ann.parent@example.com");
  await parent.screenshot({ path: path.join(dir, "favourites-390.png"), fullPage: true });

  // The same gallery at laptop width: four across, still pictures.
  await parent.setViewportSize({ width: 1280, height: 800 });
  await parent.getByRole("link", { name: "Ann Archer" }).click();
  await expect(parent.getByTestId("photo-grid").getByRole("img")).toHaveCount(2);
  await parent.screenshot({ path: path.join(dir, "gallery-1280.png"), fullPage: true });
  console.log(`screenshots in ${dir}`);
  await context.close();
});
