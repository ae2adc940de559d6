// The account's own settings: name, password (needs the current one, ends every
// session), email (the new address confirms by link before it replaces the old).
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import * as tokenRoute from "@/app/v1/auth/token/route";
import * as accountRoute from "@/app/v1/account/route";
import * as passwordRoute from "@/app/v1/account/password/route";
import * as emailRoute from "@/app/v1/account/email/route";
import * as confirm from "@/app/v1/auth/email-verification/confirm/route";
import { getDb } from "@/lib/foundation/db/client";
import { accountTokens } from "@/lib/foundation/db/schema";
import { call, testAccount } from "../http";
import { smtpServerForFile, tokenOf } from "../support/smtp-test-server";

const smtp = smtpServerForFile();
const signIn = (email: string, password: string) => call(tokenRoute, "POST", "/v1/auth/token", { body: { email, password } });
const fresh = () => `new-${Math.random().toString(36).slice(2, 8)}@example.com`;

describe("PATCH /v1/account", () => {
  it("renames the studio, and the next email greets it by the new name", async () => {
    const { token, email } = await testAccount();
    const res = await call(accountRoute, "PATCH", "/v1/account", { token, body: { name: "  Northlight Photo  " } });
    expect(res.status).toBe(200);
    expect(res.json.name).toBe("Northlight Photo");
    expect((await call(accountRoute, "GET", "/v1/account", { token })).json.name).toBe("Northlight Photo");
    await call(emailRoute, "POST", "/v1/account/email", { token, body: { email: fresh(), current_password: "correct horse battery staple" } });
    expect((await smtp().waitFor(email, /change of your email address/)).text).toContain("Hello Northlight Photo,");
  });

  it("names a bad or unknown field", async () => {
    const { token } = await testAccount();
    const res = await call(accountRoute, "PATCH", "/v1/account", { token, body: { name: " ", plan: "premium" } });
    expect(res.status).toBe(400);
    expect(res.json.details.fields.map((f: { field: string }) => f.field).sort()).toEqual(["name", "plan"]);
  });
});

describe("POST /v1/account/password", () => {
  it("needs the current password", async () => {
    const { token } = await testAccount();
    const res = await call(passwordRoute, "POST", "/v1/account/password", { token, body: { current_password: "not it at all", new_password: "a brand new pass phrase" } });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe("WRONG_PASSWORD");
    expect(res.json.details.fields[0].field).toBe("current_password");
    expect((await call(accountRoute, "GET", "/v1/account", { token })).status).toBe(200);
  });

  it("changes it, ends every earlier session, answers a token for this caller, and emails a notice", async () => {
    const { token, email, password } = await testAccount();
    const other = (await signIn(email, password)).json.access_token as string;
    const res = await call(passwordRoute, "POST", "/v1/account/password", { token, body: { current_password: password, new_password: "a brand new pass phrase" } });
    expect(res.status).toBe(200);
    expect(res.json.token_type).toBe("Bearer");
    expect((await call(accountRoute, "GET", "/v1/account", { token })).status).toBe(401);
    expect((await call(accountRoute, "GET", "/v1/account", { token: other })).status).toBe(401);
    expect((await call(accountRoute, "GET", "/v1/account", { token: res.json.access_token })).status).toBe(200);
    expect((await signIn(email, password)).status).toBe(401);
    expect((await signIn(email, "a brand new pass phrase")).status).toBe(200);
    await smtp().waitFor(email, /Your password was changed/);
  });

  it("refuses a weak new password and changes nothing", async () => {
    const { token, password } = await testAccount();
    const res = await call(passwordRoute, "POST", "/v1/account/password", { token, body: { current_password: password, new_password: "aaaaaaaaaaaa" } });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe("WEAK_PASSWORD");
    expect((await call(accountRoute, "GET", "/v1/account", { token })).status).toBe(200);
  });
});

describe("POST /v1/account/email", () => {
  it("the new address confirms by link before it replaces the old; the old one is told twice", async () => {
    const { token, email, password, account } = await testAccount();
    const next = fresh();
    const res = await call(emailRoute, "POST", "/v1/account/email", { token, body: { email: next.toUpperCase(), current_password: password } });
    expect(res.status).toBe(202);
    expect(res.json).toEqual({ status: "pending_confirmation", pending_email: next });
    const told = await smtp().waitFor(email, /change of your email address/);
    expect(told.text).toContain(next);
    // Until confirmed, nothing changed.
    expect((await call(accountRoute, "GET", "/v1/account", { token })).json.email).toBe(email);
    expect((await signIn(email, password)).status).toBe(200);

    const link = await smtp().waitFor(next, /Confirm your new email address/);
    expect(link.text).toContain(account.name);
    const done = await call(confirm, "POST", "/v1/auth/email-verification/confirm", { body: { token: tokenOf(link.links[0]!) } });
    expect(done.status).toBe(200);
    expect(done.json.account.email).toBe(next);
    expect((await call(accountRoute, "GET", "/v1/account", { token })).json.email).toBe(next);
    expect((await signIn(next, password)).status).toBe(200);
    expect((await signIn(email, password)).status).toBe(401);
    expect((await smtp().waitFor(email, /Your email address was changed/)).text).toContain(next);

    const again = await call(confirm, "POST", "/v1/auth/email-verification/confirm", { body: { token: tokenOf(link.links[0]!) } });
    expect(again.json.error).toBe("TOKEN_USED");
  });

  it("an expired change link changes nothing", async () => {
    const { token, email, password, account } = await testAccount();
    const next = fresh();
    await call(emailRoute, "POST", "/v1/account/email", { token, body: { email: next, current_password: password } });
    const link = await smtp().waitFor(next, /Confirm your new email address/);
    await (await getDb()).update(accountTokens).set({ expiresAt: new Date(Date.now() - 1) }).where(eq(accountTokens.accountId, account.id));
    const res = await call(confirm, "POST", "/v1/auth/email-verification/confirm", { body: { token: tokenOf(link.links[0]!) } });
    expect(res.json.error).toBe("TOKEN_EXPIRED");
    expect((await call(accountRoute, "GET", "/v1/account", { token })).json.email).toBe(email);
  });

  it("refuses a taken address, the same address and a wrong password", async () => {
    const a = await testAccount();
    const b = await testAccount();
    const taken = await call(emailRoute, "POST", "/v1/account/email", { token: a.token, body: { email: b.email, current_password: a.password } });
    expect(taken.status).toBe(409);
    expect(taken.json.error).toBe("EMAIL_TAKEN");
    const same = await call(emailRoute, "POST", "/v1/account/email", { token: a.token, body: { email: a.email, current_password: a.password } });
    expect(same.status).toBe(400);
    expect(same.json.error).toBe("SAME_EMAIL");
    const wrong = await call(emailRoute, "POST", "/v1/account/email", { token: a.token, body: { email: fresh(), current_password: "not the password" } });
    expect(wrong.json.error).toBe("WRONG_PASSWORD");
  });

  it("a change link confirmed after another account took the address is a 409, and changes nothing", async () => {
    const a = await testAccount();
    const b = await testAccount();
    const next = fresh();
    await call(emailRoute, "POST", "/v1/account/email", { token: a.token, body: { email: next, current_password: a.password } });
    await call(emailRoute, "POST", "/v1/account/email", { token: b.token, body: { email: next, current_password: b.password } });
    const [linkA, linkB] = smtp().to(next, /Confirm your new email address/).map((m) => tokenOf(m.links[0]!));
    expect((await call(confirm, "POST", "/v1/auth/email-verification/confirm", { body: { token: linkB! } })).json.account.id).toBe(b.account.id);
    const late = await call(confirm, "POST", "/v1/auth/email-verification/confirm", { body: { token: linkA! } });
    expect(late.status).toBe(409);
    expect(late.json.error).toBe("EMAIL_TAKEN");
    expect((await call(accountRoute, "GET", "/v1/account", { token: a.token })).json.email).toBe(a.email);
  });
});
