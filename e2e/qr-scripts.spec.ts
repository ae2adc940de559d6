import { execFileSync } from "node:child_process";
import { expect, test } from "@playwright/test";
import { qrPayload } from "../lib/services/qr/payload";
import { signUp } from "./support/accounts";
import { navigateTo } from "./support/nav";

// Rosters and cards agree: a Korean and an Arabic name go through the Bulk QR
// editor, come back printed on the PDF (read back by poppler's pdftotext, the
// Arabic joined and in reading order) and every card's QR decodes to its pupil.
test("Bulk QR prints a Hangul and an Arabic name, and their cards scan", async ({ page }) => {
  await signUp(page, "QR Scripts");
  await navigateTo(page, "Bulk QR");
  await expect(page.getByRole("heading", { name: "Bulk QR cards" })).toBeVisible();

  const roster = [
    { id: "K1001", name: "김민준", cls: "3학년 2반" },
    { id: "A1002", name: "محمد عبد الله", cls: "الصف الرابع" },
    { id: "H1003", name: "שרה לוי", cls: "כיתה ד" },
    { id: "L1004", name: "Maximilian Alexander Wolfeschlegelsteinhausenbergerdorff", cls: "5B" },
  ];
  await page.getByLabel("Paste a roster CSV").fill(["student_id,name,class_name", ...roster.map((r) => `${r.id},${r.name},${r.cls}`)].join("\n"));
  await page.getByRole("button", { name: "Use this CSV" }).click();
  await expect(page.getByTestId("qr-card-count")).toHaveText("4");
  await expect(page.getByText(/problem to fix/)).toHaveCount(0);
  await page.getByLabel("Job reference (printed in every QR)").fill("SCRIPTS-2026");

  await page.getByRole("button", { name: "Preview first page" }).click();
  await expect(page.getByTestId("qr-preview")).toBeVisible({ timeout: 30_000 });
  await page.getByRole("button", { name: "Generate PDF (4 tokens)" }).click();
  const link = page.getByTestId("qr-download");
  await expect(link).toBeVisible({ timeout: 30_000 });
  await page.screenshot({ path: "test-results/qr-scripts.png", fullPage: true });

  const downloadPromise = page.waitForEvent("download");
  await link.click();
  const file = (await (await downloadPromise).path())!;
  const text = execFileSync("pdftotext", ["-enc", "UTF-8", file, "-"], { encoding: "utf8" });
  const squeeze = (s: string) => s.replace(/\s+/g, "");
  for (const r of roster) {
    expect(squeeze(text), r.name).toContain(squeeze(r.name));
    expect(text).toContain(r.cls);
  }
  expect(text).not.toContain("\u2026");

  // Cut the page as a guillotine would and scan every card (4 per Letter page on the free plan).
  const found = JSON.parse(execFileSync(process.execPath, ["--import", "tsx", "e2e/support/decode-qr-cards.mts", file, "4up", "letter"], { encoding: "utf8" })) as string[];
  expect(found.sort()).toEqual(roster.map((r) => qrPayload("SCRIPTS-2026", r.id)).sort());
});
