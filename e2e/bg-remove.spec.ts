import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { grantTokens, signUp } from "./support/accounts";
import { navigateTo } from "./support/nav";

const fixture = (name: string) => ({
  name,
  mimeType: "image/png",
  buffer: fs.readFileSync(path.resolve(process.cwd(), "lib/engines/ml/background-removal/fixtures", name)),
});

test("background removal: the cost is shown first, dropped images become cut-outs beside their originals, the balance follows", async ({ page, request }) => {
  test.setTimeout(300_000);
  const email = await signUp(page, "Cut-out Studio");
  await navigateTo(page, "Background removal");
  await expect(page.getByRole("heading", { name: "Background removal" })).toBeVisible();

  // 100 sign-up tokens do not cover one image (150): said before sending, and sending is disabled.
  const input = page.getByTestId("bg-remove-input");
  await input.setInputFiles([fixture("astronaut.png")]);
  await expect(page.getByTestId("bg-remove-cost")).toContainText("1 image × 150 = 150 tokens");
  await expect(page.getByText("Not enough tokens: 50 more needed.")).toBeVisible();
  await expect(page.getByRole("button", { name: /Remove background/ })).toBeDisabled();

  await grantTokens(request, email, 400);

  await page.reload();
  await input.setInputFiles([fixture("astronaut.png"), fixture("coffee.png")]);
  await expect(page.getByTestId("bg-remove-cost")).toContainText("2 images × 150 = 300 tokens");
  await expect(page.getByTestId("bg-remove-cost")).toContainText("Balance: 500 tokens");
  await page.getByLabel(/Edge softness/).fill("5");
  await page.getByRole("button", { name: "Remove backgrounds (300 tokens)" }).click();

  // Live status per job until the cut-out appears on its checkerboard beside the original.
  const jobs = page.getByTestId("bg-remove-job");
  await expect(jobs).toHaveCount(2);
  for (const name of ["astronaut.png", "coffee.png"]) {
    const card = page.getByRole("article", { name: `Background removal of ${name}` });
    await expect(card).toHaveAttribute("data-status", /processing|sending|completed/);
    await expect(card).toHaveAttribute("data-status", "completed", { timeout: 240_000 });
    await expect(card.getByRole("img", { name: `Original: ${name}` })).toBeVisible();
    const cutout = card.getByRole("img", { name: `Cut-out: ${name}` });
    await expect(cutout).toBeVisible();
    await expect.poll(() => cutout.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
    await expect(card.getByRole("link", { name: "Download PNG" })).toHaveAttribute("href", /\/files\/bg-remove\/.+cutout\.png\?expires=/);
  }
  // The signed output URL serves a PNG.
  const href = await page.getByRole("article", { name: "Background removal of coffee.png" }).getByRole("link", { name: "Download PNG" }).getAttribute("href");
  const png = await request.get(href!);
  expect(png.headers()["content-type"]).toBe("image/png");

  // The wallet shows the two debits.
  await expect(page.getByTestId("bg-remove-cost")).toContainText("Balance: 200 tokens");
  await page.screenshot({ path: test.info().outputPath("bg-remove-page.png"), fullPage: true });
});
