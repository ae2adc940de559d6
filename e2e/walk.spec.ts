// What a photographer tripped on in the walk of the studio (issue "What a photographer
// still trips on"): each test is one of those points, at a desktop and a phone width.
import { expect, test } from "@playwright/test";
import { sameOrigin, signUp } from "./support/accounts";
import { checkFile } from "./support/preflight";
import { cleanRgb } from "../test/fixtures/preflight/raster-fixtures";

for (const width of [1280, 390]) {
  test.describe(`${width} px wide`, () => {
    test.use({ viewport: { width, height: width === 390 ? 844 : 900 } });

    test("pages have an icon: it is linked, served, and no page asks for a missing one", async ({ page }, testInfo) => {
      const missing: string[] = [];
      page.on("response", (r) => {
        if (r.status() === 404 && /icon|favicon/.test(r.url())) missing.push(r.url());
      });
      await page.goto("/signin");
      const href = await page.locator('link[rel="icon"]').first().getAttribute("href");
      expect(href).toBeTruthy();
      const icon = await page.request.get(href!);
      expect(icon.status()).toBe(200);
      expect(icon.headers()["content-type"]).toContain("image/svg+xml");
      // Browsers and crawlers ask for /favicon.ico whatever the page links.
      const ico = await page.request.get("/favicon.ico");
      expect(ico.status()).toBe(200);
      expect(ico.headers()["content-type"]).toMatch(/icon/);
      await signUp(page, `Icon ${width}`);
      await page.goto("/dashboard");
      expect(missing).toEqual([]);
      await testInfo.attach(`dashboard-${width}`, { body: await page.screenshot(), contentType: "image/png" });
    });

    test("the price table names the face matching price, and nothing is 'not available yet'", async ({ page }, testInfo) => {
      await signUp(page, `Prices ${width}`);
      await page.goto("/wallet/top-up");
      const row = page.getByRole("row", { name: /AI Face Matching/ });
      await expect(row).toContainText("6 tokens");
      await expect(page.getByText("Not available yet")).toHaveCount(0);
      await testInfo.attach(`prices-${width}`, { body: await row.screenshot(), contentType: "image/png" });
    });

    test("Back from a preflight report returns to the preflight page, then to where the person came from", async ({ page }, testInfo) => {
      await signUp(page, `Back ${width}`);
      await page.goto("/dashboard");
      await page.goto("/preflight");
      await checkFile(page, "poster.jpg", "image/jpeg", await cleanRgb(600, 480, "jpeg"), { w: "2", h: "1.6", bleed: "0" });
      await expect(page).toHaveURL(/\/preflight\?report=rpt_/);
      await testInfo.attach(`report-${width}`, { body: await page.screenshot(), contentType: "image/png" });
      await page.goBack();
      await expect(page).toHaveURL(/\/preflight$/);
      await expect(page.getByRole("heading", { name: "Preflight", level: 1 })).toBeVisible();
      await expect(page.getByTestId("report-design-id")).toHaveCount(0);
      await page.goBack();
      await expect(page).toHaveURL(/\/dashboard$/);
    });

    test("a new account sees first steps, and the sample photo waits in the background removal tray", async ({ page }, testInfo) => {
      await signUp(page, `First steps ${width}`);
      await page.goto("/dashboard");
      const steps = page.getByTestId("first-steps");
      await expect(steps).toBeVisible();
      await expect(steps.getByRole("link")).toHaveText([/Try a cut-out/, /Check a print file/, /Set up an agency/]);
      await testInfo.attach(`first-steps-${width}`, { body: await page.screenshot(), contentType: "image/png" });
      await steps.getByRole("link", { name: /Try a cut-out/ }).click();
      await expect(page).toHaveURL(/\/bg-remove\?sample=astronaut/);
      await expect(page.getByTestId("bg-remove-cost")).toContainText("1 image × 150 = 150 tokens");
    });

    test("Bulk QR: the agency and its studio job are picked, and a reload keeps the form", async ({ page }, testInfo) => {
      await signUp(page, `QR form ${width}`);
      const api = async (path: string, data: unknown) => {
        const res = await page.request.post(path, { data, headers: sameOrigin(page) });
        expect(res.status(), `${path}: ${await res.text()}`).toBe(201);
        return res.json();
      };
      const agency = await api("/v1/services/studio/agencies", { name: `Walk Elementary ${width}`, agency_type: "school" });
      await api(`/v1/services/studio/agencies/${agency.id}/jobs`, { name: "Fall portraits 2026", icp_type: "school", status: "active" });
      await api(`/v1/services/studio/agencies/${agency.id}/subjects`, { student_id: "W-1", name: "Ada Walker", class_name: "3B" });
      await page.goto("/qr");
      await expect(page.getByText("Choose a CSV file…")).toBeVisible();
      await page.getByLabel("Or load an agency's roster").selectOption(String(agency.id));
      await expect(page.getByTestId("qr-card-count")).toHaveText("1");
      await expect(page.getByLabel("Or load an agency's roster")).toHaveValue(String(agency.id));
      await page.getByLabel("Its job").selectOption({ label: "Fall portraits 2026" });
      await expect(page.getByLabel("Job reference (printed in every QR)")).toHaveValue("Fall portraits 2026");
      await page.reload();
      await expect(page.getByTestId("qr-card-count")).toHaveText("1");
      await expect(page.getByLabel("Job reference (printed in every QR)")).toHaveValue("Fall portraits 2026");
      await expect(page.getByLabel("Or load an agency's roster")).toHaveValue(String(agency.id));
      await testInfo.attach(`qr-form-${width}`, { body: await page.screenshot({ fullPage: true }), contentType: "image/png" });
    });
  });
}
