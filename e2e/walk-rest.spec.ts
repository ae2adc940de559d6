// The rest of the walk (issue 22): a face crop never cuts a head, the preflight
// pages (Back, words, names, pictures), navigation that fits, and /docs offline.
// Each at a desktop and a phone width, with screenshots attached to the run.
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { expect, test, type Page } from "@playwright/test";
import { grantTokens, signUp } from "./support/accounts";
import { checkFile } from "./support/preflight";
import { navigateTo } from "./support/nav";
import { NAV_GROUPS, NAV_ITEMS } from "../components/layout/nav-items";
import { transparentPng } from "../test/fixtures/preflight/raster-fixtures";

const face = (name: string) => fs.readFileSync(path.resolve(process.cwd(), "test/fixtures/faces", name));
/** obama.jpg with its top 8 px cut off: the crown about 5 px below the photo's top (as test/support/face-fixtures.ts headNearTheTop). */
const headNearTheTop = () => sharp(face("obama.jpg")).extract({ left: 0, top: 8, width: 640, height: 792 }).jpeg({ quality: 90 }).toBuffer();

/** The page is no wider than the window: nothing scrolls sideways. */
const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

for (const width of [1280, 390]) {
  test.describe(`${width} px wide`, () => {
    const phone = width === 390;
    test.use({ viewport: { width, height: phone ? 844 : 900 }, hasTouch: phone, isMobile: phone });

    test("face crop, sports preset, head near the top: the canvas is extended, the head is whole; a face the photo cuts is refused and not charged", async ({ page }, testInfo) => {
      test.setTimeout(120_000);
      await signUp(page, `Head room ${width}`);
      await navigateTo(page, "Face crop");
      await page.getByTestId("face-crop-input").setInputFiles([
        { name: "near-top.jpg", mimeType: "image/jpeg", buffer: await headNearTheTop() },
        { name: "cut-face.jpg", mimeType: "image/jpeg", buffer: face("obama_partial_face.jpg") },
      ]);
      await page.getByRole("radio", { name: /Sports/ }).check({ force: true });
      await page.getByRole("button", { name: "Crop 2 photos" }).click();
      const card = page.getByTestId("crop-card");
      await expect(card).toHaveCount(1, { timeout: 90_000 });
      await expect(card.getByTestId("edge-note")).toContainText(/Background extended at the top \(\d+ px\)/);
      await expect(card).not.toContainText("Zoomed");
      await expect(page.getByTestId("failed-files")).toContainText("cut-face.jpg");
      await expect(page.getByTestId("failed-files")).toContainText("cut by the edge");
      // 2 photos debited, the refused one refunded: 100 − 2.
      await expect(page.getByTestId("cost")).toContainText("Balance: 98 tokens");
      const crop = card.getByRole("img", { name: /cropped/ });
      await expect.poll(() => crop.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
      expect(await fitsWidth(page)).toBe(true);
      await testInfo.attach(`face-crop-padded-${width}`, { body: await page.screenshot({ fullPage: true }), contentType: "image/png" });
    });

    test("preflight: a re-check has words, a name of its own and a link; before/after fill the column and enlarge; Back returns to the report", async ({ page, request }, testInfo) => {
      test.setTimeout(120_000);
      const email = await signUp(page, `Recheck ${width}`);
      await grantTokens(request, email, 900);
      await navigateTo(page, "Preflight");
      await checkFile(page, "holes.png", "image/png", await transparentPng(600, 480, { x: 50, y: 60, w: 200, h: 100 }), { w: "2", h: "1.6", bleed: "0" });
      const original = page.url();
      const panel = page.getByTestId("fix-panel");
      await panel.getByRole("button", { name: "Fix for 200 tokens" }).click();
      await expect(page.getByTestId("fix-status")).toHaveText("Fixed", { timeout: 60_000 });
      const recheck = page.getByTestId("fix-recheck");
      await expect(recheck).toContainText("fixed: transparency");
      await expect(recheck).not.toContainText(/[a-z]+_[a-z]+/);

      // Before and after: each as wide as the panel's column (not a thumbnail), and larger still on click.
      const before = page.getByTestId("fix-before");
      await expect.poll(() => before.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
      const column = (await page.getByTestId("fix-previews").boundingBox())!;
      const small = (await before.boundingBox())!;
      expect(small.width).toBeGreaterThan(column.width - 2);
      // Side by side they were about 180 px each at 1280 px.
      expect(small.width).toBeGreaterThan(phone ? 260 : 340);
      await testInfo.attach(`fix-previews-${width}`, { body: await panel.screenshot(), contentType: "image/png" });
      await page.getByRole("button", { name: "Enlarge: Before the fix" }).click();
      const large = page.getByTestId("fix-before-enlarged");
      await expect(large).toBeVisible();
      const big = (await large.getByRole("img").boundingBox())!;
      expect(big.width).toBeGreaterThan(small.width);
      await testInfo.attach(`fix-enlarged-${width}`, { body: await page.screenshot(), contentType: "image/png" });
      await large.getByRole("button", { name: "Close" }).click();
      await expect(large).toBeHidden();

      // The re-check report: its own name, reached by a link; Back returns to the report the person was on.
      await recheck.getByRole("link", { name: "open the re-check report" }).click();
      await expect(page.getByTestId("report-design-id")).toHaveText("holes.png (re-check 1)");
      expect(page.url()).not.toBe(original);
      await expect(page.getByRole("list", { name: "Recent reports" })).toContainText("holes.png (re-check 1)");
      await testInfo.attach(`recheck-report-${width}`, { body: await page.screenshot({ fullPage: true }), contentType: "image/png" });
      await page.goBack();
      await expect(page).toHaveURL(original);
      await expect(page.getByTestId("report-design-id")).toHaveText("holes.png");
      expect(await fitsWidth(page)).toBe(true);
    });

    test("navigation: grouped, fits the width, reaches every page; every page fits; keyboard hints only with a keyboard", async ({ page }, testInfo) => {
      test.setTimeout(180_000);
      await signUp(page, `Nav ${width}`);
      await page.goto("/dashboard");
      const header = page.locator("header").first();
      // The header itself never scrolls sideways.
      expect(await header.evaluate((h) => h.scrollWidth <= h.clientWidth)).toBe(true);
      if (phone) {
        await expect(page.getByRole("button", { name: "Menu", exact: true })).toBeVisible();
        await page.getByRole("button", { name: "Menu", exact: true }).click();
        const menu = page.getByRole("navigation", { name: "Studio" });
        for (const g of NAV_GROUPS) await expect(menu.getByRole("heading", { name: g.label, exact: true })).toBeVisible();
        for (const item of NAV_ITEMS) await expect(menu.getByRole("link", { name: item.label, exact: true })).toBeVisible();
        await testInfo.attach(`menu-${width}`, { body: await page.screenshot(), contentType: "image/png" });
        await page.keyboard.press("Escape");
        await expect(menu).toBeHidden();
      } else {
        const nav = page.getByRole("navigation", { name: "Studio" });
        for (const g of NAV_GROUPS) await expect(nav.getByRole("button", { name: new RegExp(`^${g.label}`) })).toBeVisible();
        await nav.getByRole("button", { name: /^Services/ }).click();
        await testInfo.attach(`nav-open-${width}`, { body: await page.screenshot(), contentType: "image/png" });
        await page.keyboard.press("Escape");
      }
      // Every studio page through the nav, and none is wider than the screen.
      const wide: string[] = [];
      for (const item of NAV_ITEMS.filter((i) => i.href !== "/docs")) {
        await navigateTo(page, item.label);
        await expect(page).toHaveURL(new RegExp(`${item.href}$`));
        await page.waitForLoadState("networkidle");
        if (!(await fitsWidth(page))) wide.push(item.href);
        if (item.href === "/face-crop" || item.href === "/preflight" || item.href === "/matching") {
          await testInfo.attach(`page${item.href.replace("/", "-")}-${width}`, { body: await page.screenshot({ fullPage: true }), contentType: "image/png" });
        }
      }
      expect(wide).toEqual([]);
      // Keyboard hints (the review queue's A, C, X…): shown with a mouse on a wide screen, hidden on a phone.
      const hint = await page.evaluate(() => {
        const k = document.createElement("kbd");
        k.className = "key-hint";
        k.textContent = "A";
        document.body.append(k);
        const shown = getComputedStyle(k).display !== "none";
        k.remove();
        return shown;
      });
      expect(hint).toBe(!phone);
    });

    test("/docs with every outside request blocked: the reference shows near the top, once, without cloud buttons; operator routes apart", async ({ page, baseURL }, testInfo) => {
      test.setTimeout(120_000);
      const origin = new URL(baseURL!).origin;
      const attempted: string[] = [];
      await page.route("**/*", (route) => {
        const url = new URL(route.request().url());
        if (url.origin !== origin && url.protocol !== "data:" && url.protocol !== "blob:") {
          attempted.push(url.href);
          return route.abort();
        }
        return route.continue();
      });
      await page.goto("/docs");
      const title = page.getByRole("heading", { name: "Print Studio API", exact: true });
      await expect(title).toBeVisible({ timeout: 60_000 });
      // Near the top, not below a loading skeleton.
      expect((await title.boundingBox())!.y).toBeLessThan(400);
      await page.waitForTimeout(1500);
      await expect(page.locator(".scalar-app-loading, [class*='skeleton']:visible")).toHaveCount(0);
      await expect(page.getByText("Ask AI")).toHaveCount(0);
      await expect(page.getByText("Generate MCP")).toHaveCount(0);
      await expect(page.getByText("Operator only").first()).toBeAttached();
      expect(await fitsWidth(page)).toBe(true);
      await testInfo.attach(`docs-${width}`, { body: await page.screenshot(), contentType: "image/png" });
      expect(attempted).toEqual([]);
    });
  });
}
