// The account page's own controls: rename the studio, change the password (this
// browser stays signed in, other sessions end), change the address by its link.
import { expect, test } from "@playwright/test";
import { E2E_PASSWORD, emailedLink, sameOrigin, signUp } from "./support/accounts";

test("account page: rename, change the password, change the email by its link", async ({ page, browser }) => {
  const email = await signUp(page, "Settings Studio");
  // A second session of the same account (another browser), through the API.
  const other = await browser.newContext();
  const token = (await (await other.request.post("/v1/auth/token", { data: { email, password: E2E_PASSWORD } })).json()).access_token as string;
  expect((await other.request.get("/v1/account", { headers: { Authorization: `Bearer ${token}` } })).status()).toBe(200);

  await page.goto("/account");
  const nameForm = page.getByRole("form", { name: "Studio name" });
  await nameForm.getByLabel(/Studio name/).fill("Harbour Light Studio");
  await nameForm.getByRole("button", { name: "Save name" }).click();
  await expect(nameForm.getByRole("status")).toHaveText("Name saved.");

  const newPassword = "another long passphrase";
  const passwordForm = page.getByRole("form", { name: "Password" });
  // A wrong current password is said once, under its field (issue 33, 16).
  await passwordForm.getByLabel("Current password").fill("not the password at all");
  await passwordForm.getByLabel(/New password/).fill("another long passphrase");
  await passwordForm.getByRole("button", { name: "Change password" }).click();
  const current = passwordForm.getByLabel("Current password");
  await expect(current).toHaveAttribute("aria-invalid", "true");
  await expect(current).toHaveAccessibleDescription("Wrong password.");
  await expect(passwordForm.getByRole("alert")).toHaveCount(0);
  await expect(passwordForm.getByText(/wrong/i)).toHaveCount(1);
  await passwordForm.getByLabel("Current password").fill(E2E_PASSWORD);
  await passwordForm.getByLabel(/New password/).fill(newPassword);
  await passwordForm.getByRole("button", { name: "Change password" }).click();
  await expect(passwordForm.getByRole("status")).toContainText("Password changed");
  // This browser signed in again with the new password; the other session ended.
  expect((await page.request.get("/v1/account")).status()).toBe(200);
  expect((await other.request.get("/v1/account", { headers: { Authorization: `Bearer ${token}` } })).status()).toBe(401);
  await other.close();

  const next = `moved-${Date.now()}@example.com`;
  const emailForm = page.getByRole("form", { name: "Email address" });
  await emailForm.getByLabel("New email address").fill(next);
  await emailForm.getByLabel("Current password").fill(newPassword);
  await emailForm.getByRole("button", { name: "Change email" }).click();
  await expect(emailForm.getByRole("status")).toContainText(`We sent a link to ${next}`);
  const link = new URL(await emailedLink(page.request, next, /Confirm your new email address/));
  await page.goto(link.pathname + link.search);
  await page.getByRole("button", { name: "Confirm this address" }).click();
  await expect(page.getByText(`${next} is confirmed`)).toBeVisible();
  // Opened again, the used link says the address is confirmed already, with a way on (issue 33).
  await page.goto(link.pathname + link.search);
  await expect(page.getByRole("heading", { name: "Your address is already confirmed" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Confirm this address" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Go to the studio" })).toHaveAttribute("href", "/dashboard");

  const me = await (await page.request.get("/v1/account", { headers: sameOrigin(page) })).json();
  expect(me).toMatchObject({ email: next, name: "Harbour Light Studio", email_verified: true });
});

test("account page: every sign-in is listed with its device, and another browser can be signed out from here", async ({ page, browser }) => {
  const email = await signUp(page, "Sessions Studio");
  // The same person signs in on a second browser.
  const other = await browser.newContext({ userAgent: "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0" });
  const second = await other.newPage();
  await second.goto("/signin");
  await second.getByLabel("Email").fill(email);
  await second.getByLabel("Password").fill(E2E_PASSWORD);
  await second.getByRole("button", { name: "Sign in" }).click();
  await expect(second).toHaveURL(/\/dashboard/);

  await page.goto("/account");
  const rows = page.getByTestId("session-row");
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: "(this one)" })).toHaveCount(1);
  await expect(rows.filter({ hasText: "Firefox on Linux" })).toContainText("Studio (browser)");
  await page.getByRole("button", { name: "Sign out everywhere else" }).click();
  await expect(page.getByRole("status").filter({ hasText: "1 session ended." })).toBeVisible();
  await expect(rows).toHaveCount(1);

  // The other browser is signed out on its next page; this one stays in.
  await second.goto("/dashboard");
  await expect(second).toHaveURL(/\/signin/);
  expect((await page.request.get("/v1/account")).status()).toBe(200);
  await other.close();
});
