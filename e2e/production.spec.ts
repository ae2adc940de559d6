import { expect, test } from "@playwright/test";
import { signUp } from "./support/accounts";
import { navigateTo } from "./support/nav";
import { buildRgbProfile } from "../test/support/icc-profile";

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

// The lab's colour profile on the same page: an admin uploads one (the page names it from
// the profile's own description), a CMYK one is refused with the reason, and removing it
// goes back to sRGB. (Its effect on the print files: test/api/production-lab-profile.test.ts.)
test("production: the lab colour profile is uploaded, refused when it is not RGB, and removed", async ({ page }) => {
  test.setTimeout(120_000);
  await signUp(page, "Profile Studio");
  await navigateTo(page, "Production");
  const card = page.getByTestId("lab-profile");
  await expect(card).toHaveText("No lab profile: print files are sRGB with the sRGB profile embedded.");
  const input = page.getByLabel("Lab ICC profile");
  await input.setInputFiles({ name: "press.icc", mimeType: "application/vnd.iccprofile", buffer: buildRgbProfile({ description: "Press CMYK", colourSpace: "CMYK" }) });
  await expect(page.getByText(/the profile's colour space is CMYK/)).toBeVisible();
  await input.setInputFiles({ name: "lab.icc", mimeType: "application/vnd.iccprofile", buffer: buildRgbProfile({ description: "Oak Lab RGB" }) });
  await expect(card).toContainText("Print files are converted into Oak Lab RGB");
  await page.reload();
  await expect(page.getByTestId("lab-profile")).toContainText("Oak Lab RGB");
  await page.getByRole("button", { name: "Remove the profile" }).click();
  await expect(page.getByTestId("lab-profile")).toHaveText("No lab profile: print files are sRGB with the sRGB profile embedded.");
});
