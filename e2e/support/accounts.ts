// A fresh studio account per spec, signed up through the real page, and tokens
// for it through the operator API (playwright.config.ts gives the server its token).
import { expect, type APIRequestContext, type Page } from "@playwright/test";

const OPERATOR_TOKEN = process.env.E2E_OPERATOR_TOKEN ?? "e2e-operator-token-not-a-secret";
export const E2E_PASSWORD = "a long enough passphrase";

/** Signs up on /signup as `name` and lands on the dashboard; returns the account's email. */
export async function signUp(page: Page, name: string, opts: { email?: string; password?: string } = {}): Promise<string> {
  const email = opts.email ?? `${name.toLowerCase().replace(/\W+/g, "-")}-${Date.now()}@example.com`;
  page.on("pageerror", (e) => console.log("page error:", e.message));
  await page.goto("/signup");
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel(/Password/).fill(opts.password ?? E2E_PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/dashboard/);
  return email;
}

/** Grants `tokens` to the account through POST /v1/operator/grants. */
export async function grantTokens(request: APIRequestContext, email: string, tokens: number): Promise<void> {
  const grant = await request.post("/v1/operator/grants", { headers: { Authorization: `Bearer ${OPERATOR_TOKEN}` }, data: { email, tokens, reason: "E2E top-up" } });
  expect(grant.status(), "the server needs OPERATOR_TOKEN (see playwright.config.ts)").toBe(201);
}

/** Headers for a cookie-authenticated write from the page's own origin (the session refuses cross-site writes). */
export const sameOrigin = (page: Page) => ({ Origin: new URL(page.url()).origin });
