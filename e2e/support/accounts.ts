// A fresh studio account per spec, signed up through the real page and confirmed
// by following the link it was emailed (the server has no SMTP_URL: the outbox,
// read with the operator token), and tokens for it through the operator API
// (playwright.config.ts gives the server its token).
import { expect, type APIRequestContext, type Page } from "@playwright/test";

export const OPERATOR_TOKEN = process.env.E2E_OPERATOR_TOKEN ?? "e2e-operator-token-not-a-secret";
export const E2E_PASSWORD = "a long enough passphrase";

/** The newest link emailed to `email` whose subject matches, from the outbox (GET /v1/operator/outbox). */
export async function emailedLink(request: APIRequestContext, email: string, subject: RegExp): Promise<string> {
  let link: string | undefined;
  await expect(async () => {
    const res = await request.get("/v1/operator/outbox?limit=100", { headers: { Authorization: `Bearer ${OPERATOR_TOKEN}` } });
    expect(res.status(), "the server needs OPERATOR_TOKEN (see playwright.config.ts)").toBe(200);
    const messages = (await res.json()).data as { to: string; subject: string; links: string[] }[];
    link = messages.find((m) => m.to === email && subject.test(m.subject))?.links[0];
    expect(link, `an email to ${email} matching ${subject}`).toBeTruthy();
  }).toPass({ timeout: 10_000 });
  return link!;
}

/** Follows the confirmation link emailed at sign-up, as its reader would; the sign-up tokens arrive with it. */
export async function confirmAddress(page: Page, email: string): Promise<void> {
  const link = await emailedLink(page.request, email, /Confirm your email address/);
  const back = page.url();
  await page.goto(new URL(link).pathname + new URL(link).search);
  await page.getByRole("button", { name: "Confirm this address" }).click();
  await expect(page.getByRole("status")).toContainText(`${email} is confirmed`);
  await page.goto(back);
}

/** Signs up on /signup as `name`, confirms the address from its email and lands on the dashboard; returns the account's email. */
export async function signUp(page: Page, name: string, opts: { email?: string; password?: string } = {}): Promise<string> {
  const email = opts.email ?? `${name.toLowerCase().replace(/\W+/g, "-")}-${Date.now()}@example.com`;
  page.on("pageerror", (e) => console.log("page error:", e.message));
  await page.goto("/signup");
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel(/Password/).fill(opts.password ?? E2E_PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/dashboard/);
  await confirmAddress(page, email);
  return email;
}

/** Grants `tokens` to the account through POST /v1/operator/grants. */
export async function grantTokens(request: APIRequestContext, email: string, tokens: number): Promise<void> {
  const grant = await request.post("/v1/operator/grants", { headers: { Authorization: `Bearer ${OPERATOR_TOKEN}` }, data: { email, tokens, reason: "E2E top-up" } });
  expect(grant.status(), "the server needs OPERATOR_TOKEN (see playwright.config.ts)").toBe(201);
}

/** Headers for a cookie-authenticated write from the page's own origin (the session refuses cross-site writes). */
export const sameOrigin = (page: Page) => ({ Origin: new URL(page.url()).origin });
