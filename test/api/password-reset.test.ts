// Password reset by real email: a real SMTP server receives the messages and the
// tests follow the links in them (test/support/smtp-test-server.ts).
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { encode } from "next-auth/jwt";
import * as reset from "@/app/v1/auth/password-reset/route";
import * as resetConfirm from "@/app/v1/auth/password-reset/confirm/route";
import * as tokenRoute from "@/app/v1/auth/token/route";
import * as accountRoute from "@/app/v1/account/route";
import * as verifyConfirm from "@/app/v1/auth/email-verification/confirm/route";
import * as keys from "@/app/v1/api-keys/route";
import { getDb } from "@/lib/foundation/db/client";
import { accountTokens } from "@/lib/foundation/db/schema";
import { serverSecret } from "@/lib/foundation/secret";
import { settlePasswordResets } from "@/lib/services/sign-in/password-reset";
import { call, testAccount } from "../http";
import { smtpServerForFile, tokenOf } from "../support/smtp-test-server";

const smtp = smtpServerForFile();
const NEW_PASSWORD = "a brand new pass phrase";

async function askReset(email: string, ip?: string) {
  const res = await call(reset, "POST", "/v1/auth/password-reset", { body: { email }, ip });
  await settlePasswordResets();
  return res;
}

async function resetLink(email: string) {
  await askReset(email);
  const mail = smtp().to(email, /Reset your password/).at(-1);
  if (!mail) throw new Error(`no reset email for ${email}`);
  return mail;
}

const signIn = (email: string, password: string) => call(tokenRoute, "POST", "/v1/auth/token", { body: { email, password } });

describe("POST /v1/auth/password-reset", () => {
  it("answers 202 and emails a link, in text and HTML, with the studio's name", async () => {
    const { email, account } = await testAccount();
    const res = await askReset(email);
    expect(res.status).toBe(202);
    expect(res.json.status).toBe("accepted");
    const mail = await smtp().waitFor(email, /Reset your password/);
    expect(mail.text).toContain(account.name);
    expect(mail.html).toContain(account.name);
    expect(mail.links).toHaveLength(1);
    expect(mail.links[0]).toMatch(/^http:\/\/localhost:3000\/reset-password\?token=[\w-]{43}$/);
    expect(mail.html).toContain(mail.links[0]);
  });

  it("answers an unknown address exactly as a known one, and sends nothing", async () => {
    const { email } = await testAccount();
    const known = await askReset(email);
    const unknown = await askReset("nobody-here@example.com");
    expect(unknown.status).toBe(known.status);
    expect(unknown.json).toEqual(known.json);
    expect(smtp().to("nobody-here@example.com")).toEqual([]);
  });

  it("stores only a hash of the token", async () => {
    const { email, account } = await testAccount();
    const token = tokenOf((await resetLink(email)).links[0]!);
    const rows = await (await getDb()).select().from(accountTokens).where(eq(accountTokens.accountId, account.id));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(JSON.stringify(row)).not.toContain(token);
  });

  it("sends at most 5 links an hour to one address (quietly: still 202) and refuses an IP past 30 requests with 429", async () => {
    const { email } = await testAccount();
    for (let i = 0; i < 7; i++) expect((await askReset(email, "198.51.100.7")).status).toBe(202);
    expect(smtp().to(email, /Reset your password/)).toHaveLength(5);
    const ip = "198.51.100.8";
    for (let i = 0; i < 30; i++) expect((await askReset(`flood-${i}@example.com`, ip)).status).toBe(202);
    const limited = await askReset("flood-last@example.com", ip);
    expect(limited.status).toBe(429);
    expect(limited.json.error).toBe("RATE_LIMITED");
  });
});

describe("POST /v1/auth/password-reset/confirm", () => {
  it("sets the password once, ends every earlier session, and emails a notice", async () => {
    const { email, password, token: before, account } = await testAccount();
    const cookieBefore = `next-auth.session-token=${await encode({ token: { sub: account.id, cv: 0 }, secret: serverSecret() })}`;
    expect((await call(accountRoute, "GET", "/v1/account", { token: before })).status).toBe(200);
    expect((await call(accountRoute, "GET", "/v1/account", { headers: { cookie: cookieBefore } })).status).toBe(200);
    // An API key is the studio's, not a session: it keeps working.
    const key = (await call(keys, "POST", "/v1/api-keys", { token: before, body: { name: "ci" } })).json.key as string;

    const token = tokenOf((await resetLink(email)).links[0]!);
    const done = await call(resetConfirm, "POST", "/v1/auth/password-reset/confirm", { body: { token, password: NEW_PASSWORD } });
    expect(done.status).toBe(200);
    expect(done.json.account.email).toBe(email);

    // The access token and the cookie issued before are refused on their next request.
    const old = await call(accountRoute, "GET", "/v1/account", { token: before });
    expect(old.status).toBe(401);
    expect((await call(accountRoute, "GET", "/v1/account", { headers: { cookie: cookieBefore } })).status).toBe(401);
    expect((await call(accountRoute, "GET", "/v1/account", { token: key })).status).toBe(200);

    expect((await signIn(email, password)).status).toBe(401);
    const fresh = await signIn(email, NEW_PASSWORD);
    expect(fresh.status).toBe(200);
    expect((await call(accountRoute, "GET", "/v1/account", { token: fresh.json.access_token })).status).toBe(200);

    const notice = await smtp().waitFor(email, /Your password was changed/);
    expect(notice.text).toContain(account.name);
    expect(notice.html).toContain("signed out");

    const again = await call(resetConfirm, "POST", "/v1/auth/password-reset/confirm", { body: { token, password: "yet another pass phrase" } });
    expect(again.status).toBe(400);
    expect(again.json.error).toBe("TOKEN_USED");
    expect((await signIn(email, NEW_PASSWORD)).status).toBe(200);
  });

  it("refuses an altered token and an expired one with their own codes", async () => {
    const { email, account } = await testAccount();
    const token = tokenOf((await resetLink(email)).links[0]!);
    const altered = token.slice(0, -1) + (token.endsWith("A") ? "B" : "A");
    const bad = await call(resetConfirm, "POST", "/v1/auth/password-reset/confirm", { body: { token: altered, password: NEW_PASSWORD } });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toBe("TOKEN_INVALID");
    expect(bad.json.details.fields[0].field).toBe("token");

    // Time moves by writing the expiry: the link is one hour old.
    await (await getDb()).update(accountTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(accountTokens.accountId, account.id));
    const expired = await call(resetConfirm, "POST", "/v1/auth/password-reset/confirm", { body: { token, password: NEW_PASSWORD } });
    expect(expired.status).toBe(400);
    expect(expired.json.error).toBe("TOKEN_EXPIRED");
  });

  it("is valid for one hour", async () => {
    const { email, account } = await testAccount();
    await resetLink(email);
    const [row] = await (await getDb()).select().from(accountTokens).where(eq(accountTokens.accountId, account.id));
    const ttl = row!.expiresAt.getTime() - row!.createdAt.getTime();
    expect(Math.abs(ttl - 3600_000)).toBeLessThan(5_000);
  });

  it("judges the new password and leaves the link usable when it is too weak", async () => {
    const { email } = await testAccount();
    const token = tokenOf((await resetLink(email)).links[0]!);
    const weak = await call(resetConfirm, "POST", "/v1/auth/password-reset/confirm", { body: { token, password: "short" } });
    expect(weak.status).toBe(400);
    expect(weak.json.error).toBe("WEAK_PASSWORD");
    expect((await call(resetConfirm, "POST", "/v1/auth/password-reset/confirm", { body: { token, password: NEW_PASSWORD } })).status).toBe(200);
  });

  it("changes only the account the link was sent to, and a newer link retires nothing else's", async () => {
    const a = await testAccount();
    const b = await testAccount();
    const tokenA = tokenOf((await resetLink(a.email)).links[0]!);
    const tokenB = tokenOf((await resetLink(b.email)).links[0]!);
    expect((await call(resetConfirm, "POST", "/v1/auth/password-reset/confirm", { body: { token: tokenA, password: NEW_PASSWORD } })).status).toBe(200);
    // B: untouched password, live session, and its own link still works.
    expect((await signIn(b.email, b.password)).status).toBe(200);
    expect((await call(accountRoute, "GET", "/v1/account", { token: b.token })).status).toBe(200);
    expect((await call(resetConfirm, "POST", "/v1/auth/password-reset/confirm", { body: { token: tokenB, password: "b's own new phrase" } })).status).toBe(200);
    expect((await signIn(a.email, NEW_PASSWORD)).status).toBe(200);
  });

  it("does not take a link of another kind", async () => {
    const { email, account } = await testAccount({ verified: false });
    const { sendVerificationLink } = await import("@/lib/domain/identity/email-verification");
    await sendVerificationLink(await getDb(), account);
    const token = tokenOf((await smtp().waitFor(email, /Confirm your email address/)).links[0]!);
    const res = await call(resetConfirm, "POST", "/v1/auth/password-reset/confirm", { body: { token, password: NEW_PASSWORD } });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe("TOKEN_INVALID");
    // …and the reset link is not a verification link either.
    const resetToken = tokenOf((await resetLink(email)).links[0]!);
    const wrongWay = await call(verifyConfirm, "POST", "/v1/auth/email-verification/confirm", { body: { token: resetToken } });
    expect(wrongWay.json.error).toBe("TOKEN_INVALID");
  });

  it("older links die with the change: only the newest password counts", async () => {
    const { email } = await testAccount();
    const first = tokenOf((await resetLink(email)).links[0]!);
    const second = tokenOf((await resetLink(email)).links[0]!);
    expect((await call(resetConfirm, "POST", "/v1/auth/password-reset/confirm", { body: { token: second, password: NEW_PASSWORD } })).status).toBe(200);
    const stale = await call(resetConfirm, "POST", "/v1/auth/password-reset/confirm", { body: { token: first, password: "sneaky other phrase" } });
    expect(stale.json.error).toBe("TOKEN_USED");
  });
});
