import fs from "node:fs";
import { expect, test } from "@playwright/test";
import { PDFDocument } from "pdf-lib";
import sharp from "sharp";
import { signUp } from "./support/accounts";
import { navigateTo } from "./support/nav";

test("Bulk QR editor: paste a CSV roster, fix it inline, preview, generate, download a PDF with the right page count", async ({ page }) => {
  await signUp(page, "QR Studio");
  await navigateTo(page, "Bulk QR");
  await expect(page.getByRole("heading", { name: "Bulk QR cards" })).toBeVisible();

  // Premium options are visible but locked on the free plan.
  await expect(page.getByRole("radio", { name: /9 per page/ })).toBeDisabled();
  await expect(page.getByRole("radio", { name: /1 per page/ })).toBeDisabled();
  await expect(page.getByLabel(/Logo URL/)).toBeDisabled();

  const rows = ["student_id,name,class_name", "S1001,Zoë Ørsted-Nguyễn,5B", "S1002,山田 太郎,5A", "S1003,,5A"];
  for (let i = 4; i <= 10; i++) rows.push(`S10${String(i).padStart(2, "0")},Student ${i},6C`);
  await page.getByLabel("Paste a roster CSV").fill(rows.join("\n"));
  await page.getByRole("button", { name: "Use this CSV" }).click();
  await expect(page.getByTestId("qr-card-count")).toHaveText("10");
  await expect(page.getByTestId("qr-cost")).toHaveAttribute("data-value", "10");

  // Row 3 has no name: flagged on its row, and generating waits until it is fixed.
  await page.getByLabel("Job reference (printed in every QR)").fill("SPRING-2026");
  await expect(page.getByText("1 problem to fix in the roster")).toBeVisible();
  await expect(page.getByRole("button", { name: /Generate PDF/ })).toBeDisabled();
  await page.getByLabel("Name, row 3").fill("Ada Lovelace");
  await expect(page.getByText(/problem to fix/)).toHaveCount(0);

  await page.getByRole("button", { name: "Preview first page" }).click();
  await expect(page.getByTestId("qr-preview")).toBeVisible({ timeout: 30_000 });
  await page.screenshot({ path: "test-results/studio-qr-editor.png", fullPage: true });

  await expect(page.getByTestId("qr-balance")).toHaveAttribute("data-value", "100");
  await page.getByRole("button", { name: "Generate PDF (10 tokens)" }).click();
  const link = page.getByTestId("qr-download");
  await expect(link).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText("10 cards on 3 sheets; 10 tokens deducted.")).toBeVisible();
  // The wallet query was invalidated: the balance shown follows the debit.
  await expect(page.getByTestId("qr-balance")).toHaveAttribute("data-value", "90");

  const downloadPromise = page.waitForEvent("download");
  await link.click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toBe("qr-cards-SPRING-2026.pdf");
  const pdf = await PDFDocument.load(fs.readFileSync((await download.path())!));
  expect(pdf.getPageCount()).toBe(3);
});

test("agencies, jobs, roster import with line errors, inline edit, sorting, and job photos with thumbnails", async ({ page }) => {
  await signUp(page, "Roster Studio");
  await navigateTo(page, "Agencies");
  await page.getByLabel("Name").fill("Lincoln Elementary");
  await page.getByRole("button", { name: "Create agency" }).click();
  await page.getByRole("link", { name: /Lincoln Elementary/ }).click();
  await expect(page.getByRole("heading", { name: "Lincoln Elementary" })).toBeVisible();

  await page.getByLabel("New job").fill("Spring portraits");
  await page.getByRole("button", { name: "Create job" }).click();
  await expect(page.getByRole("link", { name: "Spring portraits" })).toBeVisible();

  await page.getByRole("link", { name: "Open roster" }).click();
  await page.getByLabel("Roster CSV").fill("student_id,name,class_name\nS2,Bob Brown,5A\nS1,,5B\nS3,Zoë Ørsted-Nguyễn,5A\nS2,Dup,5C");
  await page.getByRole("button", { name: "Import CSV" }).click();
  const errors = page.getByTestId("csv-errors");
  await expect(errors).toContainText("Line 3 (name)");
  await expect(errors).toContainText("Line 5 (student_id)");
  await expect(page.getByText("The roster is empty")).toBeVisible();

  await page.getByLabel("Roster CSV").fill("student_id,name,class_name\nS2,Bob Brown,5A\nS1,Carla Diaz,5B\nS3,Zoë Ørsted-Nguyễn,5A\nS4,山田 太郎,4C");
  await page.getByRole("button", { name: "Import CSV" }).click();
  await expect(page.getByText("Imported 4 rows: 4 new, 0 updated.")).toBeVisible();
  const table = page.getByTestId("roster-table");
  const firstCell = () => table.locator("tbody tr").first().locator("td").nth(1);
  await expect(firstCell()).toHaveText("Bob Brown");
  await page.getByRole("button", { name: /^Name/ }).click(); // now descending
  await expect(firstCell()).toHaveText("山田 太郎");
  await page.getByRole("button", { name: /^Student id/ }).click();
  await expect(firstCell()).toHaveText("Carla Diaz");

  await page.getByRole("button", { name: "Edit Carla Diaz" }).click();
  await page.getByLabel("Name", { exact: true }).last().fill("Carla Díaz-Ruiz");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(firstCell()).toHaveText("Carla Díaz-Ruiz");
  // Grade and teacher are shown and edited in place.
  await page.getByRole("button", { name: "Edit Carla Díaz-Ruiz" }).click();
  await page.getByLabel("Grade", { exact: true }).last().fill("5");
  await page.getByLabel("Teacher", { exact: true }).last().fill("Mr. Stephens");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(table.locator("tbody tr").first().locator("td").nth(3)).toHaveText("5");
  await expect(table.locator("tbody tr").first().locator("td").nth(4)).toHaveText("Mr. Stephens");
  // A school's export as it comes: First Name, Last Name, Student ID, Grade, Teacher.
  await page.getByLabel("Roster CSV").fill("First Name,Last Name,Student ID,Grade,Teacher\nDan,Drew,S5,4,Ms. Jameson");
  await page.getByRole("button", { name: "Import CSV" }).click();
  await expect(page.getByText("Imported 1 row: 1 new, 0 updated.")).toBeVisible();
  await expect(table.locator("tbody tr").filter({ hasText: "Dan Drew" }).locator("td")).toHaveText(["S5", "Dan Drew", "—", "4", "Ms. Jameson", "—", /.*/, /Edit/]);
  await page.getByLabel("Roster CSV").fill("Student ID,Name,Bus Route\nS6,Eve Eden,7");
  await page.getByRole("button", { name: "Import CSV" }).click();
  await expect(page.getByTestId("csv-errors")).toContainText("student_id (or Student ID");
  await page.screenshot({ path: "test-results/studio-roster.png", fullPage: true });

  await page.getByRole("link", { name: "← Lincoln Elementary" }).click();
  await page.getByRole("link", { name: "Spring portraits" }).click();
  const photo = await sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 220, g: 140, b: 60 } } }).jpeg().toBuffer();
  await page.getByLabel("Photos to upload").setInputFiles([
    { name: "IMG_0001.jpg", mimeType: "image/jpeg", buffer: photo },
    { name: "IMG_0002.jpg", mimeType: "image/jpeg", buffer: photo },
  ]);
  await expect(page.getByText("Uploaded")).toHaveCount(2, { timeout: 30_000 });
  await expect(page.getByTestId("upload-count")).toHaveText("2 of 2 done");
  const grid = page.getByTestId("job-photos");
  await expect(grid.getByRole("img")).toHaveCount(2);
  await expect(grid.getByText("640 × 480").first()).toBeVisible();
  await expect.poll(() => grid.getByRole("img").first().evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(320);
  await page.screenshot({ path: "test-results/studio-job-photos.png", fullPage: true });
});
