import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Locator } from "@playwright/test";
import { signUp } from "./support/accounts";
import { ok } from "./support/expect-status";
import { navigateTo } from "./support/nav";
import { GALLERY_DAY_PLAN, GALLERY_DAY_ROSTER, sortedPictureDay } from "./support/picture-day";
import { parentAtCart } from "./support/parent-cart";

// Production from the studio's side, in the browser where it is tested. Set up through
// the API (their own specs drive them): an 8x10 product (300 ppi, RGB), a price sheet whose
// 8x10 allows backgrounds and ships to the school, a navy colour background, the job's
// sheet and the published galleries; Stripe Connect on the stand-in's onboarding page.
// A parent on a phone orders Ann's portrait as three 8x10s: one on navy (the live preview
// must arrive as a decoded picture), one zoomed in to 166 ppi (the cart warns but lets
// them order), one as shot (chosen first as a package of two, whose framing the cart shows); pays on the stand-in's checkout. The studio makes the job's
// batch on the Production page: the as-shot print is ready; the soft crop is held with
// its ppi reason and the navy one for its cut-out (the frame, cut to 3:2 from a square
// portrait, cuts the hair off at the photo's top, where the whole-height crop needs the
// head). On the order page the fix panel re-crops the first (zoom back to 1) and releases
// the second's cut-out; both render, pass and show as pictures, and the batch counts all
// three ready. The package's cart line and full-page screenshots of the order page and the Production page go to the
// test's temp dir.
test.use({ viewport: { width: 1280, height: 900 } });

// Ann's portrait (the gallery specs' day, its first photo swapped): 4000 × 2667 px, an 8x10 from the
// whole height is 333 ppi; zoomed in twice, 167 (under 75 % of the 300 ppi the product asks for:
// production holds it, not only warns). The portrait is the face photo with room above the head: with
// the money flow's, the whole-height crop puts the face within 3 mm of the trim (held as well).
const PLAN = GALLERY_DAY_PLAN.map((f) => (f.name === "IMG_0002.jpg" ? { ...f, photo: 3, width: 4000 } : f));

/** The image has loaded and decoded to real pixels (not a broken or empty picture). */
async function expectDecoded(img: Locator) {
  await expect(img).toBeVisible();
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => (el.complete ? el.naturalWidth : 0)), { timeout: 30_000 }).toBeGreaterThan(0);
  await img.evaluate((el: HTMLImageElement) => el.decode());
}

test("production: a parent picks a background with its live preview; the studio's batch holds a soft crop and the fix panel releases it", async ({ page, browser }) => {
  test.setTimeout(480_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "production-e2e-"));
  const email = await signUp(page, "Production Flow Studio");
  const day = await sortedPictureDay(page.request, email, dir, GALLERY_DAY_ROSTER, PLAN);
  const { headers } = day;

  // What this spec does not test, through the API.
  const product = await ok<{ id: string }>(page.request.post("/v1/products", { headers, data: { sku: "P-8X10", name: "8x10 print", product_type: "poster", width_in: 8, height_in: 10, price: 100, currency: "USD", min_ppi: 300, color_mode: "rgb", bleed_mm: 0 } }), 201);
  await ok(page.request.post("/v1/production/backgrounds", { headers, data: { name: "Navy", color: "#1e3a5f" } }), 201);
  const batchDate = new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10);
  const sheet = await ok<{ id: string }>(
    page.request.post("/v1/price-sheets", {
      headers,
      data: {
        name: "Picture day prints",
        currency: "usd",
        items: [{ id: "p8x10", kind: "print", product_id: product.id, name: "8x10 print", price: 1500, lab_cost: 300, allow_backgrounds: true }],
        packages: [{ id: "two", name: "Two 8x10s", price: 2500, items: [{ item_id: "p8x10", quantity: 2 }] }],
        shipping: [{ type: "school", name: "To the school", batch_date: batchDate }],
      },
    }),
    201,
  );
  await ok(page.request.put(`/v1/services/studio/agencies/${day.agencyId}/jobs/${day.jobId}/price-sheet`, { headers, data: { price_sheet_id: sheet.id } }), 200);

  // Stripe Connect: the stand-in's onboarding is a page of "Stripe's" (no API path finishes it).
  await page.goto("/settings");
  await page.getByRole("button", { name: "Connect Stripe" }).click();
  await expect(page.getByRole("heading", { name: "Set up payments" })).toBeVisible();
  await page.getByRole("button", { name: "Finish onboarding" }).click();
  await expect(page.getByTestId("payments-status")).toHaveText("Taking payments");

  // Publishing makes Ann's gallery and code; the previews render in the background.
  const galleriesUrl = `/v1/services/studio/agencies/${day.agencyId}/jobs/${day.jobId}/galleries`;
  await ok(page.request.post(galleriesUrl, { headers, data: {} }), 200);
  let code = "";
  await expect(async () => {
    const list = await ok<{ data: { name: string | null; access_code: string | null; photo_count: number; previews_ready: number }[] }>(page.request.get(galleriesUrl, { headers }), 200);
    const ann = list.data.find((g) => g.name === "Ann Archer")!;
    expect(ann.previews_ready).toBe(ann.photo_count);
    code = ann.access_code!;
  }).toPass({ timeout: 120_000 });

  // 1. The parent, on a phone: Ann's photo three times as an 8x10.
  const { phone, parent } = await parentAtCart(browser, code);
  const favourite = parent.getByRole("region", { name: "Favourites" });
  for (let n = 0; n < 3; n++) await favourite.getByRole("button", { name: "Add" }).tap();
  const whatToBuy = parent.getByLabel("What to buy");
  await expect(whatToBuy).toHaveCount(3);
  for (let n = 0; n < 3; n++) await whatToBuy.nth(n).selectOption({ label: "8x10 print · $15.00" });
  const lines = parent.getByRole("region", { name: "Cart" }).locator(":scope > div");

  // The first on the navy background: the picker, then the child on navy as a decoded picture.
  const first = lines.nth(0);
  const picker = first.getByRole("group", { name: "Background" });
  await expect(picker.getByRole("button", { name: "As shot" })).toHaveAttribute("aria-pressed", "true");
  await picker.getByRole("button", { name: "Navy" }).tap();
  await expect(picker.getByRole("button", { name: "Navy" })).toHaveAttribute("aria-pressed", "true");
  const started = Date.now();
  const preview = first.getByRole("img", { name: "Your photo on the Navy background" });
  await expect(preview).toBeVisible({ timeout: 120_000 });
  await expectDecoded(preview);
  console.log(`background preview arrived in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  expect(await preview.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBeGreaterThan(100);
  // Only the line that chose it shows a preview.
  await expect(parent.getByTestId("background-preview")).toHaveCount(1);
  // The cart tells the parent, in the hold's words, what production will hold: the hair runs off
  // the photo's top where the whole-height crop needs it (only the line on a background).
  await expect(first.getByTestId("print-warning-head_cut")).toContainText("The top of the head is cut off in this photo", { timeout: 30_000 });
  await expect(parent.getByTestId("print-warning-head_cut")).toHaveCount(1);

  // The second zoomed in to 166 ppi: the cart warns and still lets the parent order it. The third as shot.
  const second = lines.nth(1);
  await expect(second.getByTestId("ppi")).toHaveText("333 ppi at this size");
  await second.getByLabel("Zoom").fill("2");
  await expect(second.getByTestId("ppi-warning")).toContainText("Under 300 ppi at this size (166 ppi)");
  await expect(lines.nth(2).getByTestId("ppi")).toHaveText("333 ppi at this size");
  // The third as a package first: no crop to draw, so the cart shows how production frames each of its
  // prints (around the face, as a single print's crop starts) as a picture, with its ppi; then back to one 8x10.
  await whatToBuy.nth(2).selectOption({ label: "Two 8x10s · $25.00" });
  const packagePrint = lines.nth(2).getByTestId("package-print");
  await expect(packagePrint).toHaveCount(1);
  await expect(packagePrint).toContainText("2 × 8x10 print");
  await expect(packagePrint).toContainText("333 ppi");
  await expectDecoded(packagePrint.getByRole("img", { name: "8x10 print as framed" }));
  await lines.nth(2).screenshot({ path: path.join(dir, "cart-package-390.png") });
  await whatToBuy.nth(2).selectOption({ label: "8x10 print · $15.00" });
  await expect(lines.nth(2).getByTestId("package-print")).toHaveCount(0);
  await expect(lines.nth(2).getByTestId("ppi")).toHaveText("333 ppi at this size");
  await parent.getByLabel("E-mail for the receipt").fill(`parent-${Date.now()}@example.com`);
  await parent.getByRole("radio", { name: /To the school/ }).check();
  expect(await parent.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
  await parent.getByRole("button", { name: "Pay" }).tap();
  await expect(parent.getByRole("heading", { name: "Pay 45.00 USD" })).toBeVisible();
  await parent.getByRole("button", { name: "Pay" }).tap();
  await expect(parent).toHaveURL(/\/o\/ord_[^/?]+\?paid=1$/);
  const orderId = /\/o\/(ord_[^/?.]+)/.exec(parent.url())![1]!;
  await phone.close();

  // 2. The studio, on its laptop: the job's batch on the Production page.
  await navigateTo(page, "Production");
  await expect(page.getByRole("heading", { name: "Production" })).toBeVisible();
  await expect(page.getByLabel("Shipping")).toHaveValue("school");
  await page.getByLabel("Job id").fill(String(day.jobId));
  await page.getByRole("button", { name: "Make batch" }).click();
  const batch = page.locator("section").filter({ has: page.getByRole("heading", { name: /^Batch lbt_/ }) }).last();
  // Three 8x10s from the 4000 px original, the navy one through the full-size cut-out: a while under load.
  await expect(batch.getByText("3 of 3 rendered · 2 on hold")).toBeVisible({ timeout: 240_000 });
  await expect(batch.getByRole("heading", { name: /^Batch lbt_\w+ · ready$/ })).toBeVisible();
  const tiles = batch.getByTestId("print-file");
  await expect(tiles).toHaveCount(3);
  const picture = new RegExp(`^P-8X10 10x8 in of ${orderId}$`);
  // What production holds, each with its reason: the parent's soft crop, and the navy one's cut-out
  // (the hair runs off the photo's top where the print needs the head: the studio checks the cut-out).
  const held = tiles.filter({ hasText: "On hold" });
  await expect(held).toHaveCount(2);
  await expect(held.getByTestId("hold-reasons").filter({ hasText: /The crop holds 16[67] ppi of the original at 10 x 8 in \(\d+ x \d+ px\); 300 ppi required/ })).toHaveCount(1);
  await expect(held.getByTestId("hold-reasons").filter({ hasText: "The top of the head is cut off in this photo" })).toHaveCount(1);
  const ready = tiles.filter({ hasText: "Ready for the lab" });
  await expect(ready).toContainText("3000 × 2400 px");
  await expectDecoded(ready.getByRole("img", { name: picture }));

  // The fixes, on the order page (the batch is not sent yet, so the files stay in it).
  await page.goto(`/orders/${orderId}`);
  const card = page.getByTestId("print-file");
  await expect(card).toHaveCount(3);
  // The soft crop: the fix panel's crop editor zoomed back out to the whole height, saved, rendered, passed.
  const soft = card.filter({ hasText: /16[67] ppi of the original/ });
  await soft.getByRole("button", { name: "Fix…" }).click();
  let panel = page.getByTestId("fix-panel");
  await expect(panel.getByTestId("crop-box")).toBeVisible();
  await expect(panel.getByTestId("ppi-warning")).toContainText("(166 ppi)");
  await panel.getByLabel("Zoom").fill("1");
  await expect(panel.getByTestId("ppi-warning")).toHaveCount(0);
  await expect(panel.getByTestId("ppi")).toHaveText("333 ppi at this size");
  await panel.getByRole("button", { name: "Save and render" }).click();
  await expect(panel).toHaveCount(0, { timeout: 120_000 });
  await expect(card.filter({ hasText: "On hold" })).toHaveCount(1, { timeout: 30_000 });
  await expect(card.filter({ hasText: "Ready for the lab" })).toHaveCount(2);
  // The cut-out: the studio looks and releases it; the child is composited on navy and passes.
  const cutOut = card.filter({ hasText: "On hold" });
  await expect(cutOut.getByTestId("hold-reasons")).toContainText("The top of the head is cut off in this photo");
  await cutOut.getByRole("button", { name: "Fix…" }).click();
  panel = page.getByTestId("fix-panel");
  await expect(panel.getByRole("button", { name: "Print without the background" })).toBeVisible();
  await panel.getByRole("button", { name: "The cut-out is fine: print it" }).click();
  await expect(panel).toHaveCount(0, { timeout: 120_000 });
  await expect(card.filter({ hasText: "On hold" })).toHaveCount(0, { timeout: 30_000 });
  await expect(card.filter({ hasText: "Ready for the lab" })).toHaveCount(3);
  const rendered = card.getByRole("img", { name: picture });
  await expect(rendered).toHaveCount(3);
  for (const img of await rendered.all()) await expectDecoded(img);
  // 3. The studio's order page with its print files, full page.
  await page.screenshot({ path: path.join(dir, "order-production-1280.png"), fullPage: true });

  // The batch now holds all three rendered, ready for the lab; the Production page, full page.
  await navigateTo(page, "Production");
  await page.getByRole("button", { name: /School bulk/ }).click();
  await expect(batch.getByText("3 of 3 rendered", { exact: true })).toBeVisible();
  await expect(batch.getByTestId("print-file").filter({ hasText: "Ready for the lab" })).toHaveCount(3);
  const batchPictures = batch.getByRole("img", { name: picture });
  await expect(batchPictures).toHaveCount(3);
  for (const img of await batchPictures.all()) await expectDecoded(img);
  await expect(batch.getByRole("link", { name: "Download ZIP for the lab" })).toBeVisible();
  await page.screenshot({ path: path.join(dir, "production-1280.png"), fullPage: true });
  console.log(`screenshots in ${dir}`);
});
