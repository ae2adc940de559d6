import { expect, test } from "@playwright/test";
import { signUp } from "./support/accounts";
import { navigateTo } from "./support/nav";

// The studio's webhooks page: reached from the nav, lists nothing at first, and an
// endpoint on a private address is refused with the API's reason (the e2e server
// has no FETCH_ALLOW_HOSTS, so no local receiver can be registered here; the
// delivery path is covered by test/api/webhooks.test.ts).
test("webhooks page: empty list, private addresses refused with the reason", async ({ page }) => {
  await signUp(page, "E2E Webhooks");
  await navigateTo(page, "Webhooks");
  await expect(page).toHaveURL(/\/webhooks$/);
  await expect(page.getByRole("heading", { name: "Webhooks" })).toBeVisible();
  await expect(page.getByText("No endpoints yet.")).toBeVisible();
  await expect(page.getByLabel("bg_removal.completed")).toBeChecked();

  await page.getByLabel("Endpoint URL").fill("http://127.0.0.1:9/hook");
  await page.getByRole("button", { name: "Add endpoint" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "The URL is not allowed" })).toContainText(/private, local or reserved/);
  await expect(page.getByText("No endpoints yet.")).toBeVisible();
  await expect(page.getByTestId("webhook-secret")).toHaveCount(0);
});
