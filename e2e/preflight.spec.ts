import { expect, test, type Page } from "@playwright/test";
import { OFF_PAGE, lowResolutionPdf, missingBleedPdf, offPagePdf } from "../test/fixtures/preflight/pdf-fixtures";
import { transparentPng } from "../test/fixtures/preflight/raster-fixtures";
import { signUp } from "./support/accounts";
import { navigateTo } from "./support/nav";

async function checkFile(page: Page, name: string, mimeType: string, buffer: Buffer, opts: { w: string; h: string; bleed: string; color?: string }) {
  await page.getByTestId("preflight-file-input").setInputFiles({ name, mimeType, buffer });
  await page.getByLabel("Canvas width (in)").first().fill(opts.w);
  await page.getByLabel("Canvas height (in)").first().fill(opts.h);
  await page.getByLabel("Bleed (mm)").fill(opts.bleed);
  if (opts.color) await page.getByLabel("Colour mode").selectOption(opts.color);
  await page.getByRole("button", { name: "Check file" }).click();
  await expect(page.getByTestId("report-design-id")).toHaveText(name, { timeout: 60_000 });
}

/** Counts non-white pixels of the rendered PDF canvas, to prove pdf.js really drew the page. */
async function inkedPixels(page: Page): Promise<number> {
  return page.getByTestId("pdf-page").locator("canvas").evaluate((c: HTMLCanvasElement) => {
    const data = c.getContext("2d")!.getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i]! < 240 || data[i + 1]! < 240 || data[i + 2]! < 240) n++;
    return n;
  });
}

test("check a PDF, see its issues on the rendered pages, click through them", async ({ page }) => {
  await signUp(page, "Preflight E2E");
  await navigateTo(page, "Preflight");
  await expect(page).toHaveURL(/\/preflight/);
  await expect(page.getByRole("heading", { name: "Preflight" })).toBeVisible();

  await checkFile(page, "catalogue.pdf", "application/pdf", await lowResolutionPdf(), { w: "8", h: "10", bleed: "0" });
  await expect(page.getByRole("region", { name: "Errors" })).toContainText("Image on page 2 is 96 ppi at its placed size (4.17 x 3.13 in); 300 ppi required.");
  await expect(page.getByRole("region", { name: "Errors" })).toContainText("Image on page 3 is 144 ppi");

  // Page 1 is rendered by pdf.js in the browser with its trim line.
  await expect(page.getByTestId("pdf-page")).toHaveAttribute("data-rendered", "true");
  await expect(page.getByTestId("pdf-page-label")).toHaveText("Page 1 of 3");
  await expect(page.locator('[data-guide="trim"]')).toHaveCount(1);

  // Clicking an issue shows its page and highlights its box.
  await page.getByRole("button", { name: /Image on page 3 is 144 ppi/ }).click();
  await expect(page.getByTestId("pdf-page-label")).toHaveText("Page 3 of 3");
  await expect(page.getByTestId("pdf-page")).toHaveAttribute("data-page", "3");
  await expect(page.getByTestId("pdf-page")).toHaveAttribute("data-rendered", "true");
  const box = page.locator('[data-testid^="issue-box-"][data-selected="true"]');
  await expect(box).toHaveCount(1);
  await expect.poll(() => inkedPixels(page)).toBeGreaterThan(1000);

  // The box sits where the image was placed: 200 x 150 pt at (72, 72) on an 8 x 10 in page.
  const canvas = await page.getByTestId("pdf-page").boundingBox();
  const rect = await box.boundingBox();
  expect(rect!.width / canvas!.width).toBeCloseTo(200 / 576, 1);
  expect((rect!.x - canvas!.x) / canvas!.width).toBeCloseTo(72 / 576, 1);

  await page.screenshot({ path: "test-results/preflight-pdf.png", fullPage: true });
});

test("check a raster with guides, use the DPI calculator, reopen and delete reports", async ({ page }) => {
  await signUp(page, "Preflight E2E");
  await page.goto("/preflight");

  const png = await transparentPng(1800, 1200, { x: 100, y: 200, w: 400, h: 150 });
  await checkFile(page, "poster.png", "image/png", png, { w: "5", h: "5", bleed: "3" });
  await expect(page.getByRole("region", { name: "Warnings" })).toContainText("is transparent or semi-transparent");
  await expect(page.getByRole("region", { name: "Warnings" })).toContainText("crops");
  await expect(page.getByTestId("raster-view").locator("img")).toHaveJSProperty("complete", true);
  for (const kind of ["bleed", "trim", "safe"]) await expect(page.locator(`[data-guide="${kind}"]`)).toHaveCount(1);
  await page.getByRole("button", { name: /is transparent or semi-transparent/ }).click();
  await expect(page.locator('[data-testid^="issue-box-"][data-selected="true"]')).toHaveCount(1);
  await page.screenshot({ path: "test-results/preflight-raster.png", fullPage: true });

  // The calculator is prefilled from the report (1800 x 1200 px on 5 x 5 in) and asks the API.
  await page.getByRole("button", { name: "Score resolution" }).click();
  await expect(page.getByTestId("dpi-score")).toContainText("240 ppi effective");
  await expect(page.getByTestId("dpi-score")).toHaveAttribute("data-stars", "5");
  await page.getByLabel("Width (px)").fill("200");
  await page.getByRole("button", { name: "Score resolution" }).click();
  await expect(page.getByTestId("dpi-score")).toHaveAttribute("data-stars", "1");
  await page.getByLabel("Width (px)").fill("0");
  await page.getByRole("button", { name: "Score resolution" }).click();
  await expect(page.getByRole("form", { name: "DPI calculator" }).getByRole("alert")).toContainText("widthPx must be greater than 0");

  await checkFile(page, "flyer.pdf", "application/pdf", await missingBleedPdf(), { w: "8", h: "10", bleed: "3" });
  const recent = page.getByRole("list", { name: "Recent reports" });
  await expect(recent.getByRole("button")).toHaveCount(2);
  await recent.getByRole("button", { name: /poster\.png/ }).click();
  await expect(page.getByTestId("report-design-id")).toHaveText("poster.png");

  // Deleting asks first: "Keep it" keeps it, "Yes, delete" deletes.
  await page.getByRole("button", { name: "Delete report" }).click();
  await page.getByRole("alertdialog", { name: "Delete this report?" }).getByRole("button", { name: "Keep it" }).click();
  await expect(recent.getByRole("button")).toHaveCount(2);
  await expect(page.getByTestId("report-design-id")).toHaveText("poster.png");
  await page.getByRole("button", { name: "Delete report" }).click();
  await page.getByRole("button", { name: "Yes, delete" }).click();
  await expect(recent.getByRole("button")).toHaveCount(1);
  await expect(page.getByTestId("report-design-id")).toHaveCount(0);
});

test("the preflight API answers JSON errors under next start", async ({ request }) => {
  const res = await request.post("/v1/services/preflight/dpi-score", { data: { widthPx: 1 } });
  expect(res.status()).toBe(401);
  const worker = await request.get("/preflight/pdfjs/build/pdf.worker.min.mjs");
  expect(worker.status()).toBe(200);
  expect(worker.headers()["content-type"]).toContain("javascript");
  expect((await request.get("/preflight/pdfjs/../package.json")).status()).toBe(404);
});

test("no silent defaults: the form starts empty and says what it skips; a Letter PDF is not failed for a canvas nobody chose", async ({ page }) => {
  await signUp(page, "Preflight E2E");
  await page.goto("/preflight");
  for (const label of ["Canvas width (in)", "Canvas height (in)", "Bleed (mm)", "Required DPI"]) await expect(page.getByLabel(label).first()).toHaveValue("");
  const plan = page.getByTestId("pf-plan");
  await expect(plan).toContainText("Page size: skipped: no canvas size given");
  await expect(plan).toContainText("Bleed: skipped: no bleed given");
  await expect(plan).toContainText("Colour: skipped: any colour mode accepted");
  await expect(plan).toContainText("Resolution: 300 ppi (the default for print");

  // One canvas side alone is not silently dropped: the form says so and waits.
  await page.getByTestId("preflight-file-input").setInputFiles({ name: "letter.pdf", mimeType: "application/pdf", buffer: await offPagePdf() });
  await page.getByLabel("Canvas width (in)").first().fill("8.5");
  await expect(page.getByTestId("pf-canvas-half")).toBeVisible();
  await expect(page.getByRole("button", { name: "Check file" })).toBeDisabled();
  await page.getByLabel("Canvas width (in)").first().fill("");
  await page.getByRole("button", { name: "Check file" }).click();
  await expect(page.getByTestId("report-design-id")).toHaveText("letter.pdf", { timeout: 60_000 });
  await expect(page.getByTestId("report-plan")).toContainText("Page size: skipped: no canvas size given");
  await expect(page.getByText(/Wrong page size/)).toHaveCount(0);

  // The headline running off the right edge is found and boxed where it is drawn.
  const errors = page.getByRole("region", { name: "Errors" });
  await expect(errors).toContainText(`Text "${OFF_PAGE.headline}" on page 1 runs`);
  await expect(errors).toContainText("past the right edge, where the page is cut: that part will be cut off.");
  await expect(page.getByRole("region", { name: "Warnings" })).toContainText(`Text "${OFF_PAGE.footer}" on page 1 is 1.4 mm from the bottom edge`);
  await expect(page.getByTestId("pdf-page")).toHaveAttribute("data-rendered", "true");
  await page.getByRole("button", { name: new RegExp(`Text "${OFF_PAGE.headline}"`) }).click();
  const box = page.locator('[data-testid^="issue-box-"][data-selected="true"]');
  await expect(box).toHaveCount(1);
  const canvas = (await page.getByTestId("pdf-page").boundingBox())!;
  const rect = (await box.boundingBox())!;
  // Letter + 3 mm bleed each side: the headline starts 200 pt into the trim and reaches past the page's right side.
  const pageWidthPt = 612 + 2 * (3 * 72) / 25.4;
  expect((rect.x - canvas.x) / canvas.width).toBeCloseTo((200 + (3 * 72) / 25.4) / pageWidthPt, 1);
  expect(rect.x + rect.width).toBeGreaterThanOrEqual(canvas.x + canvas.width - 2);
  await page.getByRole("button", { name: new RegExp(`Text "${OFF_PAGE.footer}"`) }).click();
  const footer = (await page.locator('[data-testid^="issue-box-"][data-selected="true"]').boundingBox())!;
  expect(footer.y + footer.height).toBeGreaterThan(canvas.y + canvas.height * 0.95);

  // Plain words in the list; the technical detail is one click away.
  await expect(page.getByText("content_outside_trim")).toBeHidden();
  await page.getByTestId(/^issue-details-/).first().locator("summary").click();
  await expect(page.getByTestId(/^issue-details-/).first()).toContainText("Issue code");
  await page.screenshot({ path: "test-results/preflight-off-page.png", fullPage: true });
});
