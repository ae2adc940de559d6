import { expect, test } from "@playwright/test";
import { navigateTo } from "./support/nav";
import { confirmAddress } from "./support/accounts";

test("sign up, see the wallet, create an API key, use it, revoke it", async ({ page, request }) => {
  const email = `e2e-${Date.now()}@example.com`;

  // Studio pages redirect to sign-in when signed out.
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/signin/);

  await page.goto("/signup");
  await page.getByLabel("Name").fill("E2E Studio");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel(/Password/).fill("a long enough passphrase");
  await page.getByRole("button", { name: "Create account" }).click();

  await expect(page).toHaveURL(/\/dashboard/);
  // Unconfirmed: a banner, and the sign-up tokens wait for the address.
  await expect(page.getByRole("region", { name: "Confirm your email address" })).toBeVisible();
  await expect(page.getByTestId("wallet-balance")).toHaveAttribute("data-value", "0");
  await confirmAddress(page, email);
  await expect(page.getByRole("region", { name: "Confirm your email address" })).toHaveCount(0);
  await expect(page.getByTestId("wallet-balance")).toHaveAttribute("data-value", "100");
  await expect(page.getByText(/sign-up bonus/i).first()).toBeVisible();

  await navigateTo(page, "API keys");
  await page.getByLabel(/name/i).fill("Print shop integration");
  await page.getByRole("button", { name: /create/i }).click();
  const key = (await page.getByTestId("new-api-key").textContent())?.trim() ?? "";
  expect(key).toMatch(/^psk_live_/);

  const me = await request.get("/v1/account", { headers: { Authorization: `Bearer ${key}` } });
  expect(me.status()).toBe(200);
  expect(await me.json()).toMatchObject({ email, name: "E2E Studio", plan: "free" });

  await page.getByRole("button", { name: "Revoke Print shop integration" }).click();
  await page.getByRole("button", { name: "Confirm revoke" }).click();
  // While confirming, the Revoke button is already gone: wait for the confirm step to go too, which it does once the key is revoked.
  await expect(page.getByRole("group", { name: "Confirm revoking Print shop integration" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Revoke Print shop integration" })).toHaveCount(0);

  const after = await request.get("/v1/account", { headers: { Authorization: `Bearer ${key}` } });
  expect(after.status()).toBe(401);
  expect((await after.json()).error).toBe("UNAUTHORIZED");
});

test("/v1 answers JSON, never a redirect, and unknown paths are JSON 404s", async ({ request }) => {
  const res = await request.get("/v1/account", { maxRedirects: 0 });
  expect(res.status()).toBe(401);
  expect(res.headers()["x-request-id"]).toBeTruthy();
  const missing = await request.get("/v1/does-not-exist");
  expect(missing.status()).toBe(404);
  expect((await missing.json()).error).toBe("NOT_FOUND");
});
