// The email outbox (lib/domain/mail): every message is a row before it is sent. With the
// mail server down the person's request still succeeds and the message waits,
// pending; jobs retry it with backoff, a restarted process sends it, and no
// repeat of an attempt (a second job run, the sweep, an operator retry) sends a
// message twice. Against a real SMTP server (smtp-server) on a fixed port that
// goes down and comes back.
import { spawn, type ChildProcess } from "node:child_process";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import * as register from "@/app/v1/auth/register/route";
import * as resend from "@/app/v1/auth/email-verification/route";
import * as confirm from "@/app/v1/auth/email-verification/confirm/route";
import * as mailList from "@/app/v1/operator/mail/route";
import * as mailRetry from "@/app/v1/operator/mail/retry/route";
import { closeDb, dbHandle, getDb } from "@/lib/foundation/db/client";
import { mailMessages } from "@/lib/foundation/db/schema";
import { resetConfig } from "@/lib/foundation/config";
import { attemptMail, requeueStalledMail } from "@/lib/domain/mail/deliver-mail";
import { closeMailTransport, sendMail } from "@/lib/domain/mail/send-mail";
import { verifyAddressMail } from "@/lib/domain/mail/templates";
import { call, testAccount } from "../http";
import { startSmtpTestServer, tokenOf, type SmtpTestServer } from "../support/smtp-test-server";
import { sleep } from "../jobs/runner-harness";

const OPERATOR = "operator-token-0123456789abcdef";
const PASSWORD = "a sturdy pass phrase";

let smtp: SmtpTestServer | undefined;
let port = 0;
let child: ChildProcess | undefined;

/** Brings the mail server down: the app's SMTP_URL stays, connections are refused. */
async function smtpDown() {
  closeMailTransport();
  await smtp?.close();
  smtp = undefined;
}
async function smtpUp() {
  smtp ??= await startSmtpTestServer(port);
  return smtp;
}

beforeAll(async () => {
  smtp = await startSmtpTestServer();
  port = Number(new URL(smtp.url).port);
  process.env.SMTP_URL = smtp.url;
  process.env.OPERATOR_TOKEN = OPERATOR;
  // Retries a second apart instead of minutes; the first job is due at once, so it races the first attempt.
  process.env.MAIL_RETRY_SCHEDULE = "1,1,1";
  process.env.MAIL_FIRST_JOB_DELAY_SECONDS = "0";
  resetConfig();
});
afterAll(async () => {
  child?.kill("SIGKILL");
  await smtpDown();
  for (const k of ["SMTP_URL", "OPERATOR_TOKEN", "MAIL_RETRY_SCHEDULE", "MAIL_FIRST_JOB_DELAY_SECONDS"]) delete process.env[k];
  resetConfig();
});
afterEach(() => closeMailTransport());

type Listed = { id: string; to: string; subject: string; status: string; attempts: number; last_error: string | null; next_attempt_at: string | null; sent_at: string | null };
async function listed(to: string, status?: string): Promise<Listed[]> {
  const res = await call(mailList, "GET", `/v1/operator/mail?limit=100${status ? `&status=${status}` : ""}`, { token: OPERATOR });
  expect(res.status).toBe(200);
  return (res.json.data as Listed[]).filter((m) => m.to === to);
}

async function signUp(email: string) {
  return call(register, "POST", "/v1/auth/register", { body: { email, password: PASSWORD, name: "Harbour Light Studio" } });
}

/** Runs the app's embedded runner in another process (the restarted server), on this file's database. */
function startChildRunner() {
  child = spawn(process.execPath, ["--import", "tsx", "test/jobs/runner-child.ts"], { cwd: process.cwd(), env: { ...process.env }, stdio: ["ignore", "ignore", "inherit"] });
}
async function stopChildRunner() {
  const c = child!;
  child = undefined;
  const exited = new Promise((r) => c.once("exit", r));
  c.kill("SIGKILL");
  await exited;
}
async function reopenDb() {
  for (let i = 0; ; i++) {
    try {
      return (await dbHandle()).db;
    } catch (err) {
      if (i > 180 || !/already in use/.test(String(err))) throw err;
      await sleep(500);
    }
  }
}

describe("the email outbox", () => {
  it("SMTP down: sign-up succeeds and its link waits, pending; after a restart with SMTP up it is sent exactly once", async () => {
    await smtpDown();
    const email = "harbour-light@example.com";
    expect((await signUp(email)).status).toBe(201);
    const [pending] = await listed(email);
    expect(pending).toMatchObject({ subject: expect.stringMatching(/Confirm your email address/), status: "pending", attempts: 1, sent_at: null });
    expect(pending!.last_error).toMatch(/ECONNREFUSED/);
    expect(pending!.next_attempt_at).not.toBeNull();
    expect(await listed(email, "pending")).toHaveLength(1);
    expect(await listed(email, "sent")).toHaveLength(0);

    // The person asks again: "we will send it", not an error. A second link, so a second message.
    const { token } = await testAccount({ verified: false });
    const again = await call(resend, "POST", "/v1/auth/email-verification", { token, body: {} });
    expect(again.status).toBe(202);
    expect(again.json.status).toBe("queued");

    // The process stops; the mail server comes back; another process starts on the same data and sends what waited.
    const pglite = (await dbHandle()).driver === "pglite";
    if (pglite) await closeDb(); // one process at a time on an embedded database
    const server = await smtpUp();
    startChildRunner();
    const mail = await server.waitFor(email, /Confirm your email address/, 90_000);
    // The attempt-1 job (due at once) and the retries had every chance to send it again.
    await sleep(3_000);
    await stopChildRunner();
    const db = pglite ? await reopenDb() : await getDb();

    expect(server.to(email)).toHaveLength(1);
    const [row] = await db.select().from(mailMessages).where(eq(mailMessages.id, pending!.id));
    expect(row).toMatchObject({ status: "sent", attempts: 2, lastError: null });
    expect(row!.sentAt).not.toBeNull();
    // The link works.
    const done = await call(confirm, "POST", "/v1/auth/email-verification/confirm", { body: { token: tokenOf(mail.links[0]!) } });
    expect(done.status).toBe(200);
  }, 180_000);

  it("a sent message is never sent again: a repeated attempt, the sweep, an operator retry, the same key", async () => {
    const server = await smtpUp();
    const db = await getDb();
    const { email, account } = await testAccount();
    const message = verifyAddressMail(email, account.name, "https://studio.example/verify-email?token=once");
    expect(await sendMail(db, message, { key: `test-once:${email}` })).toBe("sent");
    expect(await sendMail(db, message, { key: `test-once:${email}` })).toBe("sent"); // the same key: nothing new queued
    const [row] = await db.select().from(mailMessages).where(eq(mailMessages.idempotencyKey, `test-once:${email}`));
    expect(await attemptMail(db, { messageId: row!.id, attempt: 1 })).toBe("skipped");
    expect(await attemptMail(db, { messageId: row!.id, attempt: 2 })).toBe("skipped");
    await requeueStalledMail(db, new Date(Date.now() + 48 * 3_600_000));
    const retry = await call(mailRetry, "POST", "/v1/operator/mail/retry", { token: OPERATOR, body: { id: row!.id } });
    expect(retry.status).toBe(409);
    expect(retry.json.error).toBe("MAIL_NOT_FAILED");
    await sleep(300);
    expect(server.to(email)).toHaveLength(1);
    expect((await db.select().from(mailMessages).where(eq(mailMessages.to, email))).length).toBe(1);
  });

  it("after the last retry the message is failed and listed; the operator's retry sends it once", async () => {
    const db = await getDb();
    const { email, account } = await testAccount();
    await smtpDown();
    const message = verifyAddressMail(email, account.name, "https://studio.example/verify-email?token=late");
    expect(await sendMail(db, message)).toBe("pending");
    const [row] = await db.select().from(mailMessages).where(eq(mailMessages.to, email));
    // The jobs' attempts, run here in turn: 3 retries in the schedule, so attempt 4 is the last.
    for (const attempt of [2, 3]) expect(await attemptMail(db, { messageId: row!.id, attempt })).toBe("retrying");
    expect(await attemptMail(db, { messageId: row!.id, attempt: 4 })).toBe("failed");
    const [failed] = await listed(email, "failed");
    expect(failed).toMatchObject({ attempts: 4, next_attempt_at: null });

    const server = await smtpUp();
    const retry = await call(mailRetry, "POST", "/v1/operator/mail/retry", { token: OPERATOR, body: { id: row!.id } });
    expect(retry.status).toBe(202);
    expect(retry.json.status).toBe("pending");
    expect(await attemptMail(db, { messageId: row!.id, attempt: 5 })).toBe("sent");
    expect(await attemptMail(db, { messageId: row!.id, attempt: 5 })).toBe("skipped");
    expect(server.to(email)).toHaveLength(1);
    expect(await listed(email, "sent")).toHaveLength(1);
  });

  it("is the operator's only: 401 with an account's token, 404 for an unknown message; bad input names the field", async () => {
    const { token } = await testAccount();
    expect((await call(mailList, "GET", "/v1/operator/mail", { token })).status).toBe(401);
    expect((await call(mailRetry, "POST", "/v1/operator/mail/retry", { token, body: { id: "mail_nothing" } })).status).toBe(401);
    expect((await call(mailRetry, "POST", "/v1/operator/mail/retry", { token: OPERATOR, body: { id: "mail_nothing" } })).status).toBe(404);
    const bad = await call(mailList, "GET", "/v1/operator/mail?status=lost", { token: OPERATOR });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.json)).toContain("status");
  });
});
