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

// Auto top-up: the card saved at checkout pays for a pack by itself when spending
// takes the balance under the threshold (the job charges it off-session; the stand-in's
// signed payment_intent.succeeded credits it), and the wallet shows it.
test("auto top-up: a card saved at checkout buys a pack when the balance falls under the threshold", async ({ page }) => {
  await signUp(page, "Auto Buyer");
  await page.goto("/wallet/top-up");
  await page.getByLabel(/Save this card for auto top-up/).check();
  await page.getByRole("button", { name: "Buy 1,000 tokens" }).click();
  await page.getByRole("button", { name: "Pay" }).click();
  await expect(page.getByText("Payment received: 1,000 tokens added.")).toBeVisible();

  await expect(page.getByText("Saved card: visa •••• 4242")).toBeVisible();
  await page.getByLabel("Top up automatically").check();
  // An empty threshold is refused on the page, not saved as 0.
  await page.getByLabel("Threshold in tokens").fill("");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "under which a pack is bought" })).toBeVisible();
  await expect(page.getByTestId("auto-top-up-state")).toHaveText("Auto top-up is off.");
  await page.getByLabel("Threshold in tokens").fill("1050");
  await page.getByLabel("Pack to buy").selectOption({ label: "1,000 tokens" });
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("auto-top-up-state")).toHaveText("Auto top-up is on: under 1,050 tokens, the saved card buys 1,000 tokens.");

  // 100 QR cards (1 token each) take 1,100 to 1,000: under 1,050, so the card buys 1,000 more.
  const cards = await page.request.post("/v1/services/studio/qr/generate", {
    headers: { Origin: new URL(page.url()).origin },
    data: { job_id: "AUTO-1", subjects: Array.from({ length: 100 }, (_, i) => ({ student_id: `S${i}`, name: `Student ${i}` })) },
  });
  expect(cards.status()).toBe(200);
  await expect(async () => {
    await page.goto("/dashboard");
    await expect(page.getByText("Auto top-up, paid by card").first()).toBeVisible({ timeout: 2_000 });
    await expect(page.getByTestId("wallet-balance")).toHaveText("2,000", { timeout: 2_000 });
  }).toPass({ timeout: 60_000 });
});

// Premium through the stand-in's checkout (subscription mode): its subscription event
// makes the account Premium, and the QR page's locked layouts open.
test("Premium by card unlocks the 9-up and single-card QR layouts", async ({ page }) => {
  await signUp(page, "Premium Buyer");
  await page.goto("/qr");
  await expect(page.getByRole("radio", { name: /9 per page/ })).toBeDisabled();
  await page.getByRole("link", { name: "See plans" }).click();
  await expect(page).toHaveURL(/\/wallet\/top-up/);
  await page.getByRole("button", { name: /Upgrade to Premium/ }).click();
  await expect(page.getByRole("heading", { name: /^Pay / })).toBeVisible();
  await page.getByRole("button", { name: "Pay" }).click();
  await expect(page).toHaveURL(/\/wallet\/top-up\?premium=started/);
  await expect(async () => {
    await page.goto("/qr");
    await expect(page.getByRole("radio", { name: /9 per page/ })).toBeEnabled({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await expect(page.getByRole("radio", { name: /1 per page/ })).toBeEnabled();
  await page.getByRole("radio", { name: /9 per page/ }).check();
  await expect(page.getByLabel(/Logo URL/)).toBeEnabled();
});
