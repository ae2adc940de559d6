import { expect, test } from "@playwright/test";
import { signUp } from "./support/accounts";

// Through the Stripe stand-in (playwright.config.ts): the studio opens Checkout, the
// customer pays on the stand-in's page, the stand-in sends the signed webhook, and
// Stripe's redirect brings the customer back to the credited balance.
test("buy a token pack by card and come back to the new balance", async ({ page }, testInfo) => {
  await signUp(page, "Card Buyer");
  await page.goto("/wallet/top-up");
  await expect(page.getByText("$9.00 per 1,000 tokens")).toBeVisible();
  await expect(page.getByTestId("wallet-balance")).toHaveText("100");
  await testInfo.attach("packs", { body: await page.screenshot(), contentType: "image/png" });

  await page.getByRole("button", { name: "Buy 1,000 tokens" }).click();
  await expect(page.getByRole("heading", { name: "Pay 10.00 USD" })).toBeVisible();
  await page.getByRole("button", { name: "Pay" }).click();

  await expect(page).toHaveURL(/\/wallet\/top-up\?session=cs_test_/);
  await expect(page.getByText("Payment received: 1,000 tokens added.")).toBeVisible();
  await expect(page.getByTestId("wallet-balance")).toHaveText("1,100");
  await testInfo.attach("paid", { body: await page.screenshot(), contentType: "image/png" });

  await page.goto("/dashboard");
  await expect(page.getByText("Token pack, paid by card").first()).toBeVisible();
  // The purchase row links to Stripe's receipt for the charge, opened in a new tab.
  const [receipt] = await Promise.all([page.context().waitForEvent("page"), page.getByTestId("receipt-link").first().click()]);
  await expect(receipt.getByRole("heading", { name: /^Receipt ch_/ })).toBeVisible();
});
