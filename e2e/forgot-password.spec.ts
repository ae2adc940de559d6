// "Forgot password?" end to end: the link from the email (received by the harness's
// SMTP server), a new password, the old session ended, the new password works.
import { expect, test } from "@playwright/test";
import { E2E_PASSWORD, emailTo, emailedLink, signUp } from "./support/accounts";

test("Forgot password? sends a link that sets a new password once and signs the old session out", async ({ page, browser }) => {
  const email = await signUp(page, "Reset Studio");
  const newPassword = "a fresh pass phrase for e2e";

  // Someone else (another browser) forgets the password.
  const other = await browser.newContext();
  const visitor = await other.newPage();
  await visitor.goto("/signin");
  await visitor.getByRole("link", { name: "Forgot password?" }).click();
  await expect(visitor).toHaveURL(/\/forgot-password/);
  await visitor.getByLabel("Email").fill(email);
  await visitor.getByRole("button", { name: "Send the link" }).click();
  await expect(visitor.getByRole("status")).toContainText("If an account has this address");

  const link = new URL(await emailedLink(visitor.request, email, /Reset your password/));
  await visitor.goto(link.pathname + link.search);
  await visitor.getByLabel(/New password/).fill(newPassword);
  await visitor.getByRole("button", { name: "Set the new password" }).click();
  await expect(visitor.getByRole("status")).toContainText("Your new password is set");

  // The link works once: opened again, its page says so at once, with no form, and leads to a new link (issue 33).
  await visitor.goto(link.pathname + link.search);
  await expect(visitor.getByRole("heading", { name: "This link was already used" })).toBeVisible();
  await expect(visitor.getByLabel(/New password/)).toHaveCount(0);
  await visitor.getByRole("link", { name: "Get a new link" }).click();
  await expect(visitor).toHaveURL(/\/forgot-password$/);
  // A link cut short is a page of its own too, not a form.
  await visitor.goto("/reset-password?token=cut-short");
  await expect(visitor.getByRole("heading", { name: "This link does not work" })).toBeVisible();

  // The first browser's session ended: its next request is refused, its next page asks to sign in.
  expect((await page.request.get("/v1/account")).status()).toBe(401);
  // Signing in again returns to the page asked for.
  await page.goto("/account?from=reset");
  await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Faccount%3Ffrom%3Dreset$/);

  // The old password is refused, the new one signs in.
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(E2E_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText(/The email or password is wrong/)).toBeVisible();
  await page.getByLabel("Password").fill(newPassword);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/account\?from=reset$/);
  // A callback that would leave the site is ignored: the dashboard instead.
  await page.goto("/signin?callbackUrl=%2F%5Cevil.example");
  await expect(page).toHaveURL(/\/dashboard$/);

  // The notice went to the address too.
  await emailTo(page.request, email, /Your password was changed/);
  await other.close();
});
