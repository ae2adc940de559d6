import { expect, test, type Page } from "@playwright/test";
import { transparentPng } from "../test/fixtures/preflight/raster-fixtures";
import { colouredPagesPdf, hiddenProblemsPdf, missingBleedPdf } from "../test/fixtures/preflight/pdf-fixtures";
import { grantTokens, signUp } from "./support/accounts";
import { checkFile } from "./support/preflight";

/** Whether an <img> really decoded a picture. */
const decoded = (page: Page, testId: string) => page.getByTestId(testId).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0);

test("fix a raster from the viewer: price, progress, before/after, re-check, download", async ({ page, request }) => {
  const email = await signUp(page, "AI fix E2E");
  await grantTokens(request, email, 900);
  await page.goto("/preflight");
  await checkFile(page, "holes.png", "image/png", await transparentPng(600, 480, { x: 50, y: 60, w: 200, h: 100 }), { w: "2", h: "1.6", bleed: "0" });

  const panel = page.getByTestId("fix-panel");
  await expect(panel).toContainText("Remove transparency");
  await panel.getByRole("button", { name: "Fix for 200 tokens" }).click();
  await expect(page.getByTestId("fix-status")).toHaveText("Fixed", { timeout: 60_000 });
  await expect(page.getByTestId("fix-recheck")).toContainText("fixed: transparency");
  await expect.poll(() => decoded(page, "fix-before")).toBe(true);
  await expect.poll(() => decoded(page, "fix-after")).toBe(true);
  const download = page.waitForEvent("download");
  await page.getByTestId("fix-download").click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^corrected-rpt_.*\.png$/);
});

test("review a PDF bleed fix: approve after seeing before/after", async ({ page, request }) => {
  const email = await signUp(page, "AI fix E2E");
  await grantTokens(request, email, 900);
  await page.goto("/preflight");
  await checkFile(page, "flyer.pdf", "application/pdf", await missingBleedPdf(), { w: "8", h: "10", bleed: "3" });
  const panel = page.getByTestId("fix-panel");
  await expect(panel).toContainText("Add bleed");
  await panel.getByLabel(/review before\/after/).check();
  await panel.getByRole("button", { name: "Fix for 150 tokens" }).click();
  await expect(page.getByTestId("fix-status")).toHaveText("Ready for your review", { timeout: 60_000 });
  await expect.poll(() => decoded(page, "fix-after")).toBe(true);
  await panel.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByTestId("fix-status")).toHaveText("Fixed", { timeout: 60_000 });
  await expect(page.getByTestId("fix-recheck")).toContainText("fixed: missing bleed");
  await expect(page.getByTestId("fix-download")).toBeVisible();
});

test("a fix waiting for review survives a reload, and can be decided from the AI fixes page too", async ({ page, request }) => {
  const email = await signUp(page, "AI fix review reload");
  await grantTokens(request, email, 900);
  await page.goto("/preflight");
  await checkFile(page, "flyer.pdf", "application/pdf", await missingBleedPdf(), { w: "8", h: "10", bleed: "3" });
  const panel = page.getByTestId("fix-panel");
  await panel.getByLabel(/review before\/after/).check();
  await panel.getByRole("button", { name: "Fix for 150 tokens" }).click();
  await expect(page.getByTestId("fix-status")).toHaveText("Ready for your review", { timeout: 60_000 });

  // A reload shows the same job waiting, with its decision, and no second "Fix" button.
  await page.reload();
  await expect(page.getByTestId("fix-status")).toHaveText("Ready for your review", { timeout: 30_000 });
  await expect(panel.getByRole("button", { name: "Approve" })).toBeVisible();
  await expect(panel.getByRole("button", { name: /^Fix for/ })).toHaveCount(0);

  // The AI fixes page offers the same decision.
  await page.goto("/ai-fixes");
  const item = page.getByTestId("ai-fix-history-item").first();
  await expect(item.getByRole("button", { name: "Approve" })).toBeVisible();
  // Its pictures are page 1; the two-page flyer's every page is a link away (issue 33, 14).
  await expect(item.getByTestId("ai-fix-all-pages")).toHaveText("See all 2 pages before and after");
  await item.getByRole("button", { name: "Reject and refund" }).click();
  await expect(item).toContainText("Rejected");
  await expect(item.getByTestId("ai-fix-review")).toHaveCount(0);
  const wallet = await (await page.request.get("/v1/wallet")).json();
  expect(wallet.balance).toBe(1000);
});

// Issue 33: a fix says what it cannot repair, at both widths.
for (const width of [1280, 390]) {
  test(`a PDF fix names what it cannot repair (text 0.7 mm from the trim, an 83 ppi photo) at ${width} px`, async ({ page, request }) => {
    await page.setViewportSize({ width, height: 900 });
    const email = await signUp(page, "AI fix not fixable");
    await grantTokens(request, email, 900);
    await page.goto("/preflight");
    await checkFile(page, "picture-day.pdf", "application/pdf", await hiddenProblemsPdf({ alpha: "opaque" }), { w: "8", h: "10", bleed: "3" });
    const panel = page.getByTestId("fix-panel");
    await expect(panel).toContainText("Add bleed");
    await panel.getByRole("button", { name: /^Fix for \d+ tokens$/ }).click();
    await expect(page.getByTestId("fix-status")).toHaveText("Fixed", { timeout: 60_000 });
    await expect(page.getByTestId("fix-recheck")).toContainText("fixed: missing bleed");
    // Not a pass: what a fix cannot repair is still there, and the panel says what to do about it.
    await expect(page.getByTestId("fix-recheck")).not.toContainText("nothing left to fix");
    const notFixable = page.getByTestId("fix-not-fixable");
    await expect(notFixable).toContainText("Not fixed on page 1: moving text or artwork is a design decision");
    await expect(notFixable).toContainText("Not fixed on page 2: a PDF's photo cannot be given detail it does not have");
    await notFixable.scrollIntoViewIfNeeded();
    const box = await notFixable.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(width + 1); // no sideways scrolling on a phone
  });
}

// Issue 33 (14): the review showed page 1 only; every page is there, before and after, at both widths.
for (const width of [1280, 390]) {
  test(`a PDF fix's review shows every page before and after at ${width} px`, async ({ page, request }) => {
    await page.setViewportSize({ width, height: 900 });
    const email = await signUp(page, "AI fix pages");
    await grantTokens(request, email, 900);
    await page.goto("/preflight");
    await checkFile(page, "three-pages.pdf", "application/pdf", await colouredPagesPdf(), { w: "8", h: "10", bleed: "3" });
    const panel = page.getByTestId("fix-panel");
    await panel.getByLabel(/review before\/after/).check();
    await panel.getByRole("button", { name: /^Fix for \d+ tokens$/ }).click();
    await expect(page.getByTestId("fix-status")).toHaveText("Ready for your review", { timeout: 60_000 });
    await expect(page.getByTestId("fix-page-label")).toHaveText("Page 1 of 3");
    await expect(page.getByTestId("fix-after")).toHaveAttribute("src", /after\.jpg/);
    await panel.getByRole("button", { name: "Next page" }).click();
    await expect(page.getByTestId("fix-page-label")).toHaveText("Page 2 of 3");
    await expect(page.getByTestId("fix-before")).toHaveAttribute("src", /before-p2\.jpg/);
    await expect(page.getByTestId("fix-after")).toHaveAttribute("src", /after-p2\.jpg/);
    await expect.poll(() => decoded(page, "fix-after")).toBe(true);
    // The strip of small pages: lazy pictures, one button a page, the shown one marked.
    const strip = page.getByTestId("fix-page-strip");
    await expect(strip.getByRole("button")).toHaveCount(3);
    await expect(strip.locator("img").first()).toHaveAttribute("loading", "lazy");
    await strip.getByRole("button", { name: "Page 3" }).click();
    await expect(page.getByTestId("fix-page-label")).toHaveText("Page 3 of 3");
    await expect(strip.getByRole("button", { name: "Page 3" })).toHaveAttribute("aria-current", "page");
    await expect(panel.getByRole("button", { name: "Next page" })).toBeDisabled();
    await expect(page.getByTestId("fix-after")).toHaveAttribute("src", /after-p3\.jpg/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width); // no sideways scrolling on a phone
    await page.getByTestId("fix-previews").screenshot({ path: `test-results/fix-pages-${width}.png` });
    await panel.getByRole("button", { name: "Approve" }).click();
    await expect(page.getByTestId("fix-status")).toHaveText("Fixed", { timeout: 60_000 });
    await expect(page.getByTestId("fix-page-label")).toHaveText(/of 3$/);
  });
}
