import { expect, test } from "@playwright/test";
import { signUp } from "./support/accounts";
import { navigateTo } from "./support/nav";

// The studio's Production page from the navigation: the new-batch form names the
// field a refusal is about, and says when nothing paid is waiting for a batch.
// (Batches with rendered pictures are covered through the API in test/api/production.test.ts.)
test("production: the new-batch form names its fields and says when nothing is waiting", async ({ page }) => {
  test.setTimeout(120_000);
  await signUp(page, "Production Studio");
  await navigateTo(page, "Production");
  await expect(page.getByRole("heading", { name: "Production" })).toBeVisible();
  await expect(page.getByText("No lab batches yet.")).toBeVisible();
  await page.getByRole("button", { name: "Make batch" }).click();
  await expect(page.getByText("Give job_id or paid_on (a batch is per job or per day).")).toBeVisible();
  await page.getByLabel("Job id").fill("424242");
  await page.getByRole("button", { name: "Make batch" }).click();
  await expect(page.getByText(/No paid school-shipped print items of that job are waiting for a batch/)).toBeVisible();
});
