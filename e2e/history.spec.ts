import fs from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { grantTokens, signUp, sameOrigin } from "./support/accounts";
import { navigateTo } from "./support/nav";

// Paid results stay: every billed operation has a history that a reload and Back
// keep, downloads download, and the wallet's ledger rows link to the work they paid for.

const bgFixture = (name: string) => ({ name, mimeType: "image/png", buffer: fs.readFileSync(path.resolve(process.cwd(), "lib/engines/ml/background-removal/fixtures", name)) });

/** Cookie-authenticated writes must come from the studio's own origin (the CSRF check). */

async function imageLoaded(page: Page, selector: ReturnType<Page["locator"]>) {
  await expect(selector).toBeVisible();
  await expect.poll(() => selector.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
}

test("background removal: the result survives reload and Back, downloads as a file, and the ledger row links to it", async ({ page, request }) => {
  test.setTimeout(300_000);
  const email = await signUp(page, "History Studio");
  await grantTokens(request, email, 200);
  await page.goto("/bg-remove"); // a fresh load: the balance after the grant
  await page.getByTestId("bg-remove-input").setInputFiles([bgFixture("astronaut.png")]);
  await page.getByRole("button", { name: "Remove background (150 tokens)" }).click();

  const item = page.getByTestId("bg-remove-history-item").first();
  await expect(item).toHaveAttribute("data-status", "completed", { timeout: 240_000 });
  const jobId = (await item.getAttribute("data-job-id"))!;
  expect(jobId).toMatch(/^job_/);
  await imageLoaded(page, item.getByRole("img", { name: `Cut-out of ${jobId}` }));
  await expect(item).toContainText("Edges");

  // Reload: the paid result is still there, with its pictures.
  await page.reload();
  const again = page.locator(`[data-testid="bg-remove-history-item"][data-job-id="${jobId}"]`);
  await expect(again).toHaveAttribute("data-status", "completed");
  await imageLoaded(page, again.getByRole("img", { name: `Cut-out of ${jobId}` }));
  await imageLoaded(page, again.getByRole("img", { name: `Original of ${jobId}` }));

  // "Download PNG" downloads (attachment), the page stays.
  const url = page.url();
  const [download] = await Promise.all([page.waitForEvent("download"), again.getByTestId("bg-remove-download").click()]);
  expect(download.suggestedFilename()).toBe("astronaut-cutout.png"); // named after the photo, not the job
  expect(page.url()).toBe(url);
  await expect(again).toBeVisible();

  // The status filter lives in the URL: a reload keeps it.
  await page.getByLabel("Status").selectOption("completed");
  await expect(page).toHaveURL(/status=completed/);
  await page.reload();
  await expect(page.getByLabel("Status")).toHaveValue("completed");
  await expect(again).toBeVisible();

  // The wallet's ledger row links to the job; Back returns to the wallet, Back again to the history.
  await navigateTo(page, "Wallet");
  const link = page.getByTestId("ledger-work-link").filter({ hasText: jobId });
  await expect(link).toBeVisible();
  await link.click();
  await expect(page).toHaveURL(new RegExp(`/bg-remove\\?job=${jobId}`));
  await expect(page.getByRole("heading", { name: `Job ${jobId}` })).toBeVisible();
  await imageLoaded(page, page.locator(`#picked-${jobId}`).getByRole("img", { name: `Cut-out of ${jobId}` }));
  await page.goBack();
  await expect(page).toHaveURL(/\/dashboard/);
  await page.goBack();
  await expect(page).toHaveURL(/\/bg-remove\?status=completed/);
  await expect(page.locator(`[data-testid="bg-remove-history-item"][data-job-id="${jobId}"]`)).toHaveAttribute("data-status", "completed");
  await page.screenshot({ path: test.info().outputPath("bg-remove-history.png"), fullPage: true });
});

test("Bulk QR: past runs keep their PDF (first page drawn) across a reload, and the ledger row links to the run", async ({ page }) => {
  test.setTimeout(120_000);
  await signUp(page, "QR History");
  await navigateTo(page, "Bulk QR");
  await page.getByLabel("Paste a roster CSV").fill("student_id,name,class_name\nS1,Ada Lovelace,5A\nS2,Alan Turing,5A");
  await page.getByRole("button", { name: "Use this CSV" }).click();
  await page.getByLabel("Job reference (printed in every QR)").fill("HISTORY-1");
  await page.getByRole("button", { name: "Generate PDF (2 tokens)" }).click();
  await expect(page.getByTestId("qr-download")).toBeVisible({ timeout: 30_000 });

  const run = page.getByTestId("qr-history-item").first();
  await expect(run).toContainText("HISTORY-1");
  await page.reload();
  await expect(page.getByTestId("qr-download")).toHaveCount(0);
  await expect(run).toContainText("HISTORY-1");
  await expect(run).toContainText("Cards:2");
  await imageLoaded(page, run.getByTestId("qr-history-thumb"));
  const generationId = (await run.getAttribute("data-generation-id"))!;
  const [download] = await Promise.all([page.waitForEvent("download"), run.getByTestId("qr-history-download").click()]);
  expect(download.suggestedFilename()).toBe("qr-cards-HISTORY-1.pdf");

  await navigateTo(page, "Wallet");
  await page.getByTestId("ledger-work-link").filter({ hasText: generationId }).click();
  await expect(page).toHaveURL(new RegExp(`/qr\\?generation=${generationId}`));
  await expect(page.locator(`#picked-qr-${generationId}`)).toContainText("HISTORY-1");
});

test("projects respect preflight: submitting with a failing report needs a reason, which is recorded; the viewer lists the project", async ({ page }) => {
  test.setTimeout(120_000);
  await signUp(page, "Gate Shop");
  // A real check of a 300 x 200 px image for a 20 x 16 in canvas at 300 dpi: it fails.
  const headers = sameOrigin(page);
  const upload = await page.request.post("/v1/uploads", {
    headers,
    multipart: { file: { name: "tiny.png", mimeType: "image/png", buffer: fs.readFileSync(path.resolve(process.cwd(), "e2e/support/tiny-300x200.png")) } },
  });
  expect(upload.status()).toBe(201);
  const check = await page.request.post("/v1/services/preflight/checks", {
    headers,
    data: { designId: "tiny", fileUrl: (await upload.json()).url, productProfile: { requiredDpi: 300 }, canvasWidthInches: 20, canvasHeightInches: 16, productType: "photo_on_canvas" },
  });
  expect(check.status()).toBe(201);
  const report = (await check.json()).data as { reportId: string; summary: { errors: number; warnings: number } };
  expect(report.summary.errors).toBeGreaterThan(0);
  const product = await page.request.post("/v1/products", { headers, data: { sku: "GATE-1", name: "Gate canvas", product_type: "photo_on_canvas", width_in: 20, height_in: 16, price: 4999, currency: "USD" } });
  expect(product.status()).toBe(201);
  const project = await page.request.post("/v1/projects", { headers, data: { name: "Smith canvas", product_id: (await product.json()).id, preflight_report_id: report.reportId } });
  expect(project.status()).toBe(201);
  const projectId = (await project.json()).id as string;

  await page.goto(`/projects/${projectId}`);
  await expect(page.getByTestId("report-verdict")).toHaveText("Failed");
  const n = report.summary.errors;
  await expect(page.getByTestId("report-counts")).toContainText(`${n} error${n === 1 ? "" : "s"}`);
  await expect(page.getByTestId("gate-note")).toBeVisible();

  await page.getByRole("button", { name: "Submit for review" }).click();
  await expect(page.getByTestId("gate-message")).toContainText(`Preflight report ${report.reportId} has ${n} error`);
  await page.getByRole("button", { name: "Submit despite the errors" }).click();
  await expect(page.getByText(/Say why the project goes ahead/)).toBeVisible();
  await page.getByLabel("Why go ahead anyway? (recorded on the project)").fill("The customer accepts a soft print.");
  await page.getByRole("button", { name: "Submit despite the errors" }).click();
  await expect(page.getByTestId("overrides")).toContainText("The customer accepts a soft print.");
  await expect(page.getByRole("button", { name: "Approve" })).toBeVisible();
  await page.reload();
  await expect(page.getByTestId("overrides")).toContainText(`despite ${n} error`);

  await page.getByRole("link", { name: "Open in the preflight viewer" }).click();
  await expect(page).toHaveURL(new RegExp(`/preflight\\?report=${report.reportId}`));
  const used = page.getByTestId("used-by-projects");
  await expect(used.getByRole("link", { name: "Smith canvas" })).toBeVisible();
  await expect(used).toContainText("went ahead despite errors");
  await page.screenshot({ path: test.info().outputPath("preflight-used-by.png"), fullPage: true });
});

test("agencies and jobs: rename, delete refused with the reason while they hold photos, then deleted with everything; duplicates warned", async ({ page }) => {
  test.setTimeout(120_000);
  await signUp(page, "Manage Studio");
  const headers = sameOrigin(page);
  const agency = await page.request.post("/v1/services/studio/agencies", { headers, data: { name: "Lincoln Elementary", agency_type: "school" } });
  const a = (await agency.json()).id as number;
  expect(agency.status()).toBe(201);
  const job = await page.request.post(`/v1/services/studio/agencies/${a}/jobs`, { headers, data: { name: "Spring portraits", icp_type: "school" } });
  const j = (await job.json()).id as number;

  await page.goto(`/agencies/${a}/jobs/${j}`);
  const photo = { name: "IMG_0001.png", mimeType: "image/png", buffer: fs.readFileSync(path.resolve(process.cwd(), "e2e/support/tiny-300x200.png")) };
  await page.getByLabel("Photos to upload").setInputFiles([photo]);
  await expect(page.getByTestId("job-photos").getByRole("img", { name: "IMG_0001.png" })).toBeVisible();
  await page.getByLabel("Photos to upload").setInputFiles([{ ...photo, name: "copy.png" }]);
  await expect(page.getByTestId("duplicate-warning")).toContainText("copy.png has exactly the same bytes as IMG_0001.png");

  await page.getByRole("button", { name: "Rename" }).click();
  await page.getByLabel("New name of the job").fill("Spring retakes");
  await page.getByRole("button", { name: "Save name" }).click();
  await expect(page.getByRole("heading", { name: "Spring retakes" })).toBeVisible();

  // One photo deleted (asked first).
  await page.getByRole("button", { name: "Delete copy.png" }).click();
  await page.getByRole("button", { name: "Confirm delete copy.png" }).click();
  await expect(page.getByTestId("job-photos").getByRole("img", { name: "copy.png" })).toHaveCount(0);

  await page.getByRole("button", { name: "Delete", exact: true }).click();
  await page.getByRole("button", { name: "Delete job" }).click();
  await expect(page.getByTestId("delete-refusal")).toHaveText("The job still holds 1 photo.");
  await page.getByRole("button", { name: "Delete everything" }).click();
  await expect(page).toHaveURL(new RegExp(`/agencies/${a}$`));
  await expect(page.getByText("No jobs yet.")).toBeVisible();

  await page.getByRole("button", { name: "Delete", exact: true }).click();
  await page.getByRole("button", { name: "Delete agency" }).click();
  await expect(page).toHaveURL(/\/agencies$/);
  await expect(page.getByText("Lincoln Elementary")).toHaveCount(0);
});

test("products: an empty form names the missing fields in words, and a price typed with a comma is accepted", async ({ page }) => {
  await signUp(page, "Comma Shop");
  await navigateTo(page, "Products");
  await page.getByRole("button", { name: "New product" }).click();
  await page.getByRole("button", { name: "Create product" }).click();
  await expect(page.getByText("Give the width in inches.")).toBeVisible();
  await expect(page.getByText("Name the product.")).toBeVisible();
  await expect(page.getByText(/expected number|received undefined/)).toHaveCount(0);
  await page.getByLabel("Name").fill("Euro canvas");
  await page.getByLabel("SKU").fill("EURO-1");
  await page.getByLabel("Width (in)").fill("16");
  await page.getByLabel("Height (in)").fill("20");
  await page.getByLabel("Price").fill("49,99");
  await page.getByLabel("Currency").fill("EUR");
  await page.getByRole("button", { name: "Create product" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Created Euro canvas." })).toBeVisible();
  await page.getByRole("button", { name: "Close" }).click();
  await expect(page.getByRole("table", { name: "Products" }).getByRole("row", { name: /Euro canvas/ })).toContainText("49.99");
});

test("face crop: past tasks keep their thumbnails across a reload, open from the URL, and Back closes them; the ledger row links to the task", async ({ page }) => {
  test.setTimeout(120_000);
  await signUp(page, "Crop History");
  await page.goto("/face-crop");
  const portrait = { name: "obama.jpg", mimeType: "image/jpeg", buffer: fs.readFileSync(path.resolve(process.cwd(), "test/fixtures/faces/obama.jpg")) };
  await page.getByTestId("face-crop-input").setInputFiles([portrait]);
  await page.getByRole("button", { name: /^Crop 1 photos?$/ }).click();
  const task = page.getByTestId("face-crop-history-item").first();
  await expect(task.getByTestId("history-status")).toHaveText("Done", { timeout: 60_000 });
  const taskId = (await task.getAttribute("data-task-id"))!;

  await page.reload();
  await imageLoaded(page, task.getByRole("img", { name: "Crop of obama.jpg" }));
  await expect(task).toContainText("Cropped:1 of 1");
  await task.getByRole("button", { name: `Open task ${taskId}` }).click();
  await expect(page).toHaveURL(new RegExp(`/face-crop\\?task=${taskId}`));
  const open = page.getByTestId("face-crop-open-task");
  await expect(open.getByTestId("crop-card")).toHaveCount(1);
  await page.reload();
  await expect(open.getByTestId("crop-card")).toHaveCount(1);
  await page.goBack();
  await expect(page).toHaveURL(/\/face-crop$/);
  await expect(open).toHaveCount(0);

  await navigateTo(page, "Wallet");
  await page.getByTestId("ledger-work-link").filter({ hasText: taskId }).click();
  await expect(page).toHaveURL(new RegExp(`/face-crop\\?task=${taskId}`));
  await expect(page.getByTestId("face-crop-open-task").getByTestId("crop-card")).toHaveCount(1);
});

test("AI fixes: the jobs page lists past fix jobs with before/after pictures, and the ledger row links to the job", async ({ page, request }) => {
  test.setTimeout(120_000);
  const email = await signUp(page, "Fix History");
  await grantTokens(request, email, 300);
  const headers = sameOrigin(page);
  const png = fs.readFileSync(path.resolve(process.cwd(), "e2e/support/tiny-300x200.png"));
  const upload = await page.request.post("/v1/uploads", { headers, multipart: { file: { name: "tiny.png", mimeType: "image/png", buffer: png } } });
  const check = await page.request.post("/v1/services/preflight/checks", { headers, data: { designId: "tiny", fileUrl: (await upload.json()).url } });
  const reportId = (await check.json()).data.reportId as string;
  const created = await page.request.post("/v1/services/preflight/ai-jobs", { headers, data: { preflightReportId: reportId, options: { fixTypes: ["sharpen_edges"] } } });
  expect(created.status()).toBe(202);
  const jobId = (await created.json()).data.jobId as string;

  await navigateTo(page, "AI fixes");
  const item = page.locator(`[data-testid="ai-fix-history-item"][data-job-id="${jobId}"]`);
  await expect(item.getByTestId("history-status")).toHaveText("Done", { timeout: 60_000 });
  await imageLoaded(page, item.getByRole("img", { name: `After: ${jobId}` }));
  await expect(item).toContainText("sharpen edges");
  await expect(item.getByRole("link", { name: `Report ${reportId}` })).toHaveAttribute("href", `/preflight?report=${reportId}`);

  // A fresh load: the job was paid for through the API, outside this page's cache.
  await page.goto("/dashboard");
  await page.getByTestId("ledger-work-link").filter({ hasText: jobId }).click();
  await expect(page).toHaveURL(new RegExp(`/ai-fixes\\?job=${jobId}`));
  await expect(page.locator("#picked-fix").getByTestId("ai-fix-history-item")).toHaveAttribute("data-job-id", jobId);
  await page.reload();
  await expect(page.locator("#picked-fix").getByTestId("ai-fix-history-item")).toHaveAttribute("data-job-id", jobId);
});
