// Address confirmation by real email: the link sent at sign-up, resent on request,
// valid 24 hours, used once; the sign-up bonus comes with the first confirmation.
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import * as register from "@/app/v1/auth/register/route";
import * as tokenRoute from "@/app/v1/auth/token/route";
import * as accountRoute from "@/app/v1/account/route";
import * as resend from "@/app/v1/auth/email-verification/route";
import * as confirm from "@/app/v1/auth/email-verification/confirm/route";
import * as wallet from "@/app/v1/wallet/route";
import * as transactions from "@/app/v1/wallet/transactions/route";
import { getDb } from "@/lib/foundation/db/client";
import { accountTokens } from "@/lib/foundation/db/schema";
import { config } from "@/lib/foundation/config";
import { call, testAccount } from "../http";
import { smtpServerForFile, tokenOf } from "../support/smtp-test-server";

const smtp = smtpServerForFile();
const PASSWORD = "a sturdy pass phrase";

async function signUp(name = "Lumen Studio") {
  const email = `studio-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const res = await call(register, "POST", "/v1/auth/register", { body: { email, password: PASSWORD, name } });
  expect(res.status).toBe(201);
  const token = (await call(tokenRoute, "POST", "/v1/auth/token", { body: { email, password: PASSWORD } })).json.access_token as string;
  return { email, token, id: res.json.account.id as string };
}

const confirmWith = (token: string) => call(confirm, "POST", "/v1/auth/email-verification/confirm", { body: { token } });
const balance = async (token: string) => (await call(wallet, "GET", "/v1/wallet", { token })).json.balance as number;

describe("email verification", () => {
  it("sign-up sends a link; the account starts unconfirmed with no tokens and gets the bonus once confirmed", async () => {
    const { email, token } = await signUp("Lumen Studio");
    const account = await call(accountRoute, "GET", "/v1/account", { token });
    expect(account.json.email_verified).toBe(false);
    expect(await balance(token)).toBe(0);

    const mail = await smtp().waitFor(email, /Confirm your email address/);
    expect(mail.text).toContain("Lumen Studio");
    expect(mail.html).toContain("Lumen Studio");
    expect(mail.links[0]).toMatch(/^http:\/\/localhost:3000\/verify-email\?token=[\w-]{43}$/);

    const done = await confirmWith(tokenOf(mail.links[0]!));
    expect(done.status).toBe(200);
    expect(done.json.account.email_verified).toBe(true);
    expect((await call(accountRoute, "GET", "/v1/account", { token })).json.email_verified).toBe(true);
    expect(await balance(token)).toBe(config().SIGNUP_BONUS_TOKENS);
    const ledger = await call(transactions, "GET", "/v1/wallet/transactions", { token });
    expect(ledger.json.data.filter((t: { operation: string }) => t.operation === "signup_bonus")).toHaveLength(1);
  });

  it("each link works once; a second link after confirmation cannot grant the bonus again", async () => {
    const { email, token } = await signUp();
    // A second link asked for before confirming: both are valid until one is used.
    expect((await call(resend, "POST", "/v1/auth/email-verification", { token, body: {} })).status).toBe(202);
    const links = smtp().to(email, /Confirm your email address/).map((m) => tokenOf(m.links[0]!));
    expect(links).toHaveLength(2);
    expect((await confirmWith(links[0]!)).status).toBe(200);
    const reused = await confirmWith(links[0]!);
    expect(reused.status).toBe(400);
    expect(reused.json.error).toBe("TOKEN_USED");
    expect((await confirmWith(links[1]!)).status).toBe(200);
    expect(await balance(token)).toBe(config().SIGNUP_BONUS_TOKENS);
    // Confirmed: no more links.
    const again = await call(resend, "POST", "/v1/auth/email-verification", { token, body: {} });
    expect(again.status).toBe(409);
    expect(again.json.error).toBe("EMAIL_ALREADY_VERIFIED");
  });

  it("expires after 24 hours, and a new link can be asked for", async () => {
    const { email, token, id } = await signUp();
    const first = tokenOf((await smtp().waitFor(email, /Confirm your email address/)).links[0]!);
    const [row] = await (await getDb()).select().from(accountTokens).where(eq(accountTokens.accountId, id));
    expect(Math.abs(row!.expiresAt.getTime() - row!.createdAt.getTime() - 24 * 3600_000)).toBeLessThan(5_000);
    await (await getDb()).update(accountTokens).set({ expiresAt: new Date(Date.now() - 1) }).where(eq(accountTokens.accountId, id));
    const expired = await confirmWith(first);
    expect(expired.status).toBe(400);
    expect(expired.json.error).toBe("TOKEN_EXPIRED");
    expect(await balance(token)).toBe(0);

    expect((await call(resend, "POST", "/v1/auth/email-verification", { token, body: {} })).status).toBe(202);
    const second = smtp().to(email, /Confirm your email address/).at(-1)!;
    expect((await confirmWith(tokenOf(second.links[0]!))).status).toBe(200);
  });

  it("confirms only the account the link was sent to", async () => {
    const a = await signUp();
    const b = await signUp();
    const linkA = tokenOf((await smtp().waitFor(a.email, /Confirm your email address/)).links[0]!);
    const res = await call(confirm, "POST", "/v1/auth/email-verification/confirm", { body: { token: linkA }, token: b.token });
    expect(res.json.account.id).toBe(a.id);
    expect((await call(accountRoute, "GET", "/v1/account", { token: b.token })).json.email_verified).toBe(false);
    expect(await balance(b.token)).toBe(0);
  });

  it("refuses an altered token", async () => {
    const { email } = await signUp();
    const t = tokenOf((await smtp().waitFor(email, /Confirm your email address/)).links[0]!);
    const res = await confirmWith(t.slice(1) + "x");
    expect(res.status).toBe(400);
    expect(res.json.error).toBe("TOKEN_INVALID");
  });

  it("the test harness's accounts are confirmed through the same step (their bonus is the ledger's signup_bonus)", async () => {
    const { token } = await testAccount({ tokens: 42 });
    expect((await call(accountRoute, "GET", "/v1/account", { token })).json.email_verified).toBe(true);
    const ledger = await call(transactions, "GET", "/v1/wallet/transactions", { token });
    expect(ledger.json.data.map((t: { operation: string; amount: number }) => [t.operation, t.amount])).toEqual([["signup_bonus", 42]]);
  });
});
