// "One click, one charge": a double click on a billed or creating button sends the
// same Idempotency-Key twice (useActionKey), so the server runs and charges it once.
import { expect, test } from "@playwright/test";
import { grantTokens, signUp } from "./support/accounts";
import { checkFile } from "./support/preflight";
import { transparentPng } from "../test/fixtures/preflight/raster-fixtures";

test("double-clicking Generate PDF on Bulk QR debits the wallet once", async ({ page }) => {
  await signUp(page, "Double Click QR");
  const posts: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST" && r.url().endsWith("/v1/services/studio/qr/generate")) posts.push(r.headers()["idempotency-key"] ?? "");
  });
  await page.goto("/qr");
  await page.getByLabel("Paste a roster CSV").fill("student_id,name,class_name\nS1,Ada Lovelace,5A\nS2,Alan Turing,5A\nS3,Grace Hopper,5B");
  await page.getByRole("button", { name: "Use this CSV" }).click();
  await page.getByLabel("Job reference (printed in every QR)").fill("DOUBLE-1");
  await expect(page.getByTestId("qr-balance")).toHaveAttribute("data-value", "100");
  await page.getByRole("button", { name: "Generate PDF (3 tokens)" }).dblclick();
  await expect(page.getByTestId("qr-download")).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("qr-balance")).toHaveAttribute("data-value", "97");

  const ledger = await (await page.request.get("/v1/wallet/transactions?limit=100")).json();
  const debits = ledger.data.filter((t: { type: string; operation: string }) => t.type === "debit" && t.operation === "bulk_qr");
  expect(debits).toHaveLength(1);
  // However many requests the double click made, they carried one key.
  expect(posts.length).toBeGreaterThanOrEqual(1);
  expect(new Set(posts).size).toBe(1);
  expect(posts[0]).toMatch(/^[0-9a-f-]{32,36}$/);
});

test("double-clicking Create agency creates one agency", async ({ page }) => {
  await signUp(page, "Double Click Agency");
  await page.goto("/agencies");
  await page.getByLabel("Name").fill("Twice Clicked Elementary");
  await page.getByRole("button", { name: "Create agency" }).dblclick();
  await expect(page.getByRole("link", { name: /Twice Clicked Elementary/ })).toBeVisible();
  const list = await (await page.request.get("/v1/services/studio/agencies?limit=100")).json();
  expect(list.agencies.filter((a: { name: string }) => a.name === "Twice Clicked Elementary")).toHaveLength(1);
  await page.reload();
  await expect(page.getByRole("link", { name: /Twice Clicked Elementary/ })).toHaveCount(1);
});

test("two clicks on Fix for 200 tokens with no gap between them start one AI fix job", async ({ page, request }) => {
  const email = await signUp(page, "Double Click Fix");
  await grantTokens(request, email, 900);
  const posts: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST" && r.url().endsWith("/v1/services/preflight/ai-jobs")) posts.push(r.headers()["idempotency-key"] ?? "");
  });
  await page.goto("/preflight");
  await checkFile(page, "holes.png", "image/png", await transparentPng(600, 480, { x: 50, y: 60, w: 200, h: 100 }), { w: "2", h: "1.6", bleed: "0" });
  const button = page.getByTestId("fix-panel").getByRole("button", { name: "Fix for 200 tokens" });
  // Both clicks in one task: the second arrives before React can re-render the button disabled.
  await button.evaluate((b: HTMLButtonElement) => {
    b.click();
    b.click();
  });
  await expect(page.getByTestId("fix-status")).toHaveText("Fixed", { timeout: 60_000 });
  const ledger = await (await page.request.get("/v1/wallet/transactions?limit=100")).json();
  const debits = ledger.data.filter((t: { type: string; operation: string }) => t.type === "debit" && t.operation === "ai_fix");
  expect(debits).toHaveLength(1);
  expect(posts).toHaveLength(1);
});
