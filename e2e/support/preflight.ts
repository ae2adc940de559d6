import { expect, type Page } from "@playwright/test";

/** Uploads a file on /preflight with a canvas size and bleed, and waits for its report. */
export async function checkFile(page: Page, name: string, mimeType: string, buffer: Buffer, opts: { w: string; h: string; bleed: string }) {
  await page.getByTestId("preflight-file-input").setInputFiles({ name, mimeType, buffer });
  await page.getByLabel("Canvas width (in)").first().fill(opts.w);
  await page.getByLabel("Canvas height (in)").first().fill(opts.h);
  await page.getByLabel("Bleed (mm)").fill(opts.bleed);
  await page.getByRole("button", { name: "Check file" }).click();
  await expect(page.getByTestId("report-design-id")).toHaveText(name, { timeout: 60_000 });
}
