// Without SMTP_URL (the embedded quick start) mail goes to the outbox in DATA_DIR,
// which only the operator can read; sign-up and reset still work on one machine.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import * as register from "@/app/v1/auth/register/route";
import * as reset from "@/app/v1/auth/password-reset/route";
import * as resetConfirm from "@/app/v1/auth/password-reset/confirm/route";
import * as verifyConfirm from "@/app/v1/auth/email-verification/confirm/route";
import * as outbox from "@/app/v1/operator/outbox/route";
import * as resend from "@/app/v1/auth/email-verification/route";
import * as accountRoute from "@/app/v1/account/route";
import { closeMailTransport } from "@/lib/domain/mail/send-mail";
import { config, resetConfig } from "@/lib/foundation/config";
import { settlePasswordResets } from "@/lib/services/sign-in/password-reset";
import { call, testAccount } from "../http";
import { tokenOf } from "../support/smtp-test-server";

const OPERATOR = "operator-token-0123456789abcdef";

function operatorToken(value: string | undefined) {
  if (value) process.env.OPERATOR_TOKEN = value;
  else delete process.env.OPERATOR_TOKEN;
  resetConfig();
}
afterEach(() => operatorToken(undefined));

type Entry = { to: string; subject: string; text: string; html: string; links: string[] };
async function inbox(email: string): Promise<Entry[]> {
  const res = await call(outbox, "GET", "/v1/operator/outbox?limit=100", { token: OPERATOR });
  expect(res.status).toBe(200);
  return (res.json.data as Entry[]).filter((m) => m.to === email);
}

describe("the outbox (no SMTP_URL)", () => {
  it("holds the sign-up link, in files of the data folder; following it confirms the address", async () => {
    expect(config().SMTP_URL).toBeUndefined();
    operatorToken(OPERATOR);
    const email = "outbox-signup@example.com";
    expect((await call(register, "POST", "/v1/auth/register", { body: { email, password: "a sturdy pass phrase", name: "Quiet Lake Studio" } })).status).toBe(201);
    const [mail] = await inbox(email);
    expect(mail!.subject).toMatch(/Confirm your email address/);
    expect(mail!.text).toContain("Quiet Lake Studio");
    expect(mail!.html).toContain("Quiet Lake Studio");
    expect(fs.readdirSync(path.join(config().dataDir, "outbox")).length).toBeGreaterThan(0);
    const done = await call(verifyConfirm, "POST", "/v1/auth/email-verification/confirm", { body: { token: tokenOf(mail!.links[0]!) } });
    expect(done.json.account.email_verified).toBe(true);
  });

  it("holds the reset link, newest first", async () => {
    operatorToken(OPERATOR);
    const { email } = await testAccount();
    await call(reset, "POST", "/v1/auth/password-reset", { body: { email } });
    await settlePasswordResets();
    const [mail] = await inbox(email);
    expect((await call(resetConfirm, "POST", "/v1/auth/password-reset/confirm", { body: { token: tokenOf(mail!.links[0]!), password: "a brand new pass phrase" } })).status).toBe(200);
    const [newest] = await inbox(email);
    expect(newest!.subject).toMatch(/Your password was changed/);
  });

  it("is the operator's only: 404 without OPERATOR_TOKEN, 401 with an account's token", async () => {
    const { token } = await testAccount();
    expect((await call(outbox, "GET", "/v1/operator/outbox", { token: OPERATOR })).status).toBe(404);
    operatorToken(OPERATOR);
    expect((await call(outbox, "GET", "/v1/operator/outbox", { token })).status).toBe(401);
    expect((await call(outbox, "GET", "/v1/operator/outbox")).status).toBe(401);
  });

  it("with an SMTP server that cannot be reached: sign-up still succeeds, a resend answers 202 queued (test/api/mail-queue.test.ts sends it later)", async () => {
    process.env.SMTP_URL = "smtp://127.0.0.1:9"; // nothing listens on the discard port
    resetConfig();
    try {
      const email = "smtp-down@example.com";
      const created = await call(register, "POST", "/v1/auth/register", { body: { email, password: "a sturdy pass phrase", name: "Offline Studio" } });
      expect(created.status).toBe(201);
      const { token } = await testAccount({ verified: false });
      const res = await call(resend, "POST", "/v1/auth/email-verification", { token, body: {} });
      expect(res.status).toBe(202);
      expect(res.json.status).toBe("queued");
      expect((await call(accountRoute, "GET", "/v1/account", { token })).status).toBe(200);
    } finally {
      closeMailTransport();
      delete process.env.SMTP_URL;
      resetConfig();
    }
  });
});
