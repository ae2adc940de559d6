import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { emailTo, signUp } from "./support/accounts";
import { sortedPictureDay } from "./support/picture-day";

// The studio adds a parent's address on the roster, sets its gallery settings,
// publishes the job's galleries and sees whose code went out; the parent follows
// the e-mailed link (/g?code=...) on a phone and lands in the child's gallery.
const ROSTER = [
  ["S1", "Ann Archer"],
  ["S2", "Ben Brook"],
] as const;
const PLAN = [
  { name: "IMG_0001.jpg", seconds: 0, card: "S1", fraction: 0.15 },
  { name: "IMG_0002.jpg", seconds: 2, photo: 0 },
  { name: "IMG_0003.jpg", seconds: 10, card: "S2", fraction: 0.15 },
  { name: "IMG_0004.jpg", seconds: 12, photo: 2 },
];

test("a parent on the roster gets the code by e-mail when the studio publishes, and the link opens the gallery", async ({ page, browser }) => {
  test.setTimeout(360_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gallery-mail-e2e-"));
  const email = await signUp(page, "Mail Studio");
  const parentEmail = `ann-parent-${Date.now()}@example.com`;
  const { agencyId, jobId } = await sortedPictureDay(page.request, email, dir, ROSTER, PLAN);

  // The roster: Ann's parent's address, edited in place.
  await page.goto(`/agencies/${agencyId}/roster`);
  const table = page.getByTestId("roster-table");
  await page.getByRole("button", { name: "Edit Ann Archer" }).click();
  await table.getByLabel("Parent e-mail").fill("not an address");
  await table.getByRole("button", { name: "Save" }).click();
  await expect(table.getByText("Must be an e-mail address")).toBeVisible();
  await table.getByLabel("Parent e-mail").fill(parentEmail.toUpperCase());
  await table.getByRole("button", { name: "Save" }).click();
  await expect(table.getByRole("row").filter({ hasText: "Ann Archer" })).toContainText(parentEmail);

  // Gallery settings on the Settings page.
  await page.goto("/settings");
  await page.getByLabel("Remind parents before closing (days, 0 = never)").fill("5");
  await page.getByLabel("Remove orders' photos after (days)").fill("400");
  await page.getByRole("button", { name: "Save gallery settings" }).click();
  await expect(page.getByText("Saved.")).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Remind parents before closing (days, 0 = never)")).toHaveValue("5");
  await expect(page.getByLabel("Remove orders' photos after (days)")).toHaveValue("400");

  // Publishing mails Ann's parent; Ben has no address.
  await page.goto(`/agencies/${agencyId}/jobs/${jobId}`);
  await page.getByRole("button", { name: "Publish galleries" }).click();
  await expect(page.getByText("Published; 1 code e-mailed to parents.")).toBeVisible({ timeout: 60_000 });
  const codes = page.getByTestId("gallery-codes");
  const annRow = codes.getByRole("row").filter({ hasText: "Ann Archer" });
  await expect(annRow.getByTestId("code-mail")).toContainText("sent");
  await expect(codes.getByRole("row").filter({ hasText: "Ben Brook" }).getByTestId("code-mail")).toHaveText("no parent e-mail");
  await expect(page.getByRole("button", { name: "Every code e-mailed" })).toBeDisabled();
  const code = (await annRow.locator("td").nth(1).innerText()).trim();

  const mail = await emailTo(page.request, parentEmail, /photos of Ann Archer are ready/);
  expect(mail.text).toContain(code);
  const link = mail.links.find((l) => l.includes("/g?code="))!;
  expect(new URL(link).searchParams.get("code")).toBe(code);

  // The parent's phone: the link enters the code.
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const parent = await context.newPage();
  await parent.goto(new URL(link).pathname + new URL(link).search);
  await expect(parent.getByRole("heading", { name: "Ann Archer's photos" })).toBeVisible();
  await context.close();
});
