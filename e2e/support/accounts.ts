// A fresh studio account per spec, signed up through the real page and confirmed
// by following the link it was emailed (received by the harness's SMTP server,
// test/support/smtp-test-server-process.ts), and tokens for it through the operator API
// (playwright.config.ts gives the server its token).
import { expect, type APIRequestContext, type Page } from "@playwright/test";
import { ok } from "./expect-status";

export const OPERATOR_TOKEN = process.env.E2E_OPERATOR_TOKEN ?? "e2e-operator-token-not-a-secret";
export const E2E_PASSWORD = "a long enough passphrase";

/** Where the harness's SMTP server lists what it received (playwright.config.ts: the app's SMTP_URL points at it). */
export const SMTP_MESSAGES_URL = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3200) + 4}/messages`;

export type ReceivedMail = { to: string; subject: string; text: string; html: string; links: string[] };

/** The messages received for `email` so far, newest first. */
export async function emailsTo(request: APIRequestContext, email: string): Promise<ReceivedMail[]> {
  const res = await request.get(`${SMTP_MESSAGES_URL}?to=${encodeURIComponent(email)}`);
  expect(res.status(), "the harness's SMTP server (see playwright.config.ts)").toBe(200);
  return (await res.json()).data as ReceivedMail[];
}

/** The newest message to `email` whose subject matches, waiting for it to arrive. */
export async function emailTo(request: APIRequestContext, email: string, subject: RegExp): Promise<ReceivedMail> {
  let mail: ReceivedMail | undefined;
  await expect(async () => {
    mail = (await emailsTo(request, email)).find((m) => subject.test(m.subject));
    expect(mail, `an email to ${email} matching ${subject}`).toBeTruthy();
  }).toPass({ timeout: 15_000 });
  return mail!;
}

/** The first link of the newest email to `email` whose subject matches. */
export async function emailedLink(request: APIRequestContext, email: string, subject: RegExp): Promise<string> {
  const link = (await emailTo(request, email, subject)).links[0];
  expect(link, `a link in the email to ${email} matching ${subject}`).toBeTruthy();
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

/** A Bearer header for the studio account `email` (the E2E password). */
export async function bearer(request: APIRequestContext, email: string): Promise<Record<string, string>> {
  const { access_token } = await ok<{ access_token: string }>(request.post("/v1/auth/token", { data: { email, password: E2E_PASSWORD } }), 200);
  return { Authorization: `Bearer ${access_token}` };
}

/** Grants `tokens` to the account through POST /v1/operator/grants. */
export async function grantTokens(request: APIRequestContext, email: string, tokens: number): Promise<void> {
  const grant = await request.post("/v1/operator/grants", { headers: { Authorization: `Bearer ${OPERATOR_TOKEN}` }, data: { email, tokens, reason: "E2E top-up" } });
  expect(grant.status(), "the server needs OPERATOR_TOKEN (see playwright.config.ts)").toBe(201);
}

/** Headers for a cookie-authenticated write from the page's own origin (the session refuses cross-site writes). */
export const sameOrigin = (page: Page) => ({ Origin: new URL(page.url()).origin });
