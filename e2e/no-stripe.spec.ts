// The top-up page on a server without Stripe settings (the embedded quick start; a
// second server in playwright.config.ts): it says in plain words that card payment is
// not set up, offers nothing to buy, and shows no operator commands.
import { expect, test } from "@playwright/test";
import { signUp } from "./support/accounts";

test.use({ baseURL: `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3200) + 2}` });

test("without Stripe, Buy tokens says card payment is not set up and sells nothing", async ({ page }) => {
  await signUp(page, "No Card Studio");
  await page.goto("/wallet/top-up");
  await expect(page.getByRole("note")).toContainText("Card payment is not set up on this server");
  for (const button of await page.getByRole("button", { name: /^Buy / }).all()) await expect(button).toBeDisabled();
  await expect(page.getByRole("button", { name: /Upgrade to Premium/ })).toHaveCount(0);
  await expect(page.getByText(/operator\/grants|npm run cli/)).toHaveCount(0);
  const checkout = await page.request.post("/v1/billing/checkout", { headers: { Origin: new URL(page.url()).origin }, data: { pack: "tokens-1000" } });
  expect(checkout.status()).toBe(503);
  expect((await checkout.json()).error).toBe("BILLING_NOT_CONFIGURED");
});
