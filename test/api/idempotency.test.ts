// Idempotency-Key on /v1 POSTs (lib/http/idempotency): replay, conflicts, concurrency,
// a crash between the debit and the answer, expiry. Real routes, real database.
import { afterEach, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import * as generate from "@/app/v1/services/studio/qr/generate/route";
import * as uploads from "@/app/v1/uploads/route";
import { getDb } from "@/lib/foundation/db/client";
import { idempotencyKeys, walletTransactions } from "@/lib/foundation/db/schema";
import { resetConfig } from "@/lib/foundation/config";
import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { sweepOnce } from "@/lib/composition/maintenance/sweeper";
import { debitTokens } from "@/lib/domain/wallet/debit-tokens";
import { getBalance } from "@/lib/domain/wallet/get-balance";
import { grantTokens } from "@/lib/domain/wallet/grant-tokens";
import { call, testAccount } from "../http";

const PATH = "/v1/services/studio/qr/generate";
const roster = (n: number) => Array.from({ length: n }, (_, i) => ({ student_id: `S${1000 + i}`, name: `Student ${i}`, class_name: "5A" }));
const qrBody = (n = 3) => ({ job_id: "IDEM-1", school_name: "Lincoln Elementary", subjects: roster(n) });

async function debits(accountId: string) {
  const db = await getDb();
  return (await db.select().from(walletTransactions).where(eq(walletTransactions.accountId, accountId))).filter((t) => t.type === "debit");
}
const grantTo = async (accountId: string, amount: number) => grantTokens(await getDb(), { accountId, amount, operation: "test_grant" });
const balance = async (accountId: string) => getBalance(await getDb(), accountId);

afterEach(() => {
  delete process.env.IDEMPOTENCY_WAIT_SECONDS;
  resetConfig();
});

describe("Idempotency-Key on a billed POST (Bulk QR)", () => {
  it("20 concurrent identical requests with one key charge once and all get the same answer", async () => {
    const { token, account } = await testAccount({ tokens: 100 });
    const headers = { "Idempotency-Key": "bulk-qr-0001" };
    const results = await Promise.all(Array.from({ length: 20 }, () => call(generate, "POST", PATH, { token, body: qrBody(5), headers })));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    const bodies = new Set(results.map((r) => r.text));
    expect(bodies.size).toBe(1);
    expect(results.filter((r) => r.headers.get("idempotent-replayed") === "true")).toHaveLength(19);
    expect(results.every((r) => r.headers.get("content-type")?.startsWith("application/json"))).toBe(true);
    expect(await balance(account.id)).toBe(95);
    expect(await debits(account.id)).toHaveLength(1);

    // A later retry (sequential) replays the same answer, still charging nothing.
    const again = await call(generate, "POST", PATH, { token, body: qrBody(5), headers });
    expect(again.status).toBe(200);
    expect(again.text).toBe(results[0]!.text);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.headers.get("x-request-id")).toBeTruthy();
    expect(await balance(account.id)).toBe(95);
  });

  it("without a key, two identical requests are two charges (the key is what prevents it)", async () => {
    const { token, account } = await testAccount({ tokens: 100 });
    await call(generate, "POST", PATH, { token, body: qrBody(2) });
    await call(generate, "POST", PATH, { token, body: qrBody(2) });
    expect(await balance(account.id)).toBe(96);
  });

  it("the same key with a different body is a 409 naming the conflict, and charges nothing", async () => {
    const { token, account } = await testAccount({ tokens: 100 });
    const headers = { "Idempotency-Key": "k-conflict" };
    expect((await call(generate, "POST", PATH, { token, body: qrBody(2), headers })).status).toBe(200);
    const res = await call(generate, "POST", PATH, { token, body: qrBody(3), headers });
    expect(res.status).toBe(409);
    expect(res.json).toMatchObject({ error: "IDEMPOTENCY_KEY_REUSED", details: { field: "Idempotency-Key" } });
    expect(res.json.message).toContain("POST /v1/services/studio/qr/generate");
    expect(await balance(account.id)).toBe(98);
  });

  it("keys are per account: the same key in two accounts runs and charges each once", async () => {
    const a = await testAccount({ tokens: 20 });
    const b = await testAccount({ tokens: 20 });
    const headers = { "Idempotency-Key": "shared-key" };
    const ra = await call(generate, "POST", PATH, { token: a.token, body: qrBody(2), headers });
    const rb = await call(generate, "POST", PATH, { token: b.token, body: qrBody(2), headers });
    expect([ra.status, rb.status]).toEqual([200, 200]);
    expect(rb.headers.get("idempotent-replayed")).toBeNull();
    expect(ra.json.id).not.toBe(rb.json.id);
    expect(await balance(a.account.id)).toBe(18);
    expect(await balance(b.account.id)).toBe(18);
  });

  it("a malformed key is a 400 naming the header, before anything runs", async () => {
    const { token, account } = await testAccount({ tokens: 20 });
    for (const key of ["", " ", "x".repeat(256), "caf\u00e9"]) {
      const res = await call(generate, "POST", PATH, { token, body: qrBody(1), headers: { "Idempotency-Key": key } });
      expect(res.status, JSON.stringify(key)).toBe(400);
      expect(res.json).toMatchObject({ error: "INVALID_IDEMPOTENCY_KEY", details: { fields: [{ field: "Idempotency-Key" }] } });
    }
    expect((await call(generate, "POST", PATH, { token, body: qrBody(1), headers: { "Idempotency-Key": "x".repeat(255) } })).status).toBe(200);
    expect(await balance(account.id)).toBe(19);
  });

  it("a 4xx answer is stored and replayed too (402 here); a validation error before the handler is not", async () => {
    const { token, account } = await testAccount({ tokens: 1 });
    const headers = { "Idempotency-Key": "k-402" };
    const first = await call(generate, "POST", PATH, { token, body: qrBody(3), headers });
    expect(first.status).toBe(402);
    const second = await call(generate, "POST", PATH, { token, body: qrBody(3), headers });
    expect(second.status).toBe(402);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(await balance(account.id)).toBe(1);
    // A body the schema refuses never takes the key: fixed, it runs.
    await grantTo(account.id, 10);
    const bad = await call(generate, "POST", PATH, { token, body: { ...qrBody(1), unknown_field: 1 }, headers: { "Idempotency-Key": "k-valid" } });
    expect(bad.status).toBe(400);
    expect((await call(generate, "POST", PATH, { token, body: qrBody(1), headers: { "Idempotency-Key": "k-valid" } })).status).toBe(200);
  });
});

describe("Idempotency-Key on a multipart upload", () => {
  const form = (text: string) => {
    const f = new FormData();
    f.append("file", new File([new TextEncoder().encode(`%PDF-1.4\n${text}\n%%EOF\n`)], "a.pdf", { type: "application/pdf" }));
    return f;
  };

  it("the same file sent again (new multipart boundary) is a replay; another file under the key is a 409", async () => {
    const { token } = await testAccount();
    const headers = { "Idempotency-Key": "upload-1" };
    const first = await call(uploads, "POST", "/v1/uploads", { token, rawBody: form("one"), headers });
    const second = await call(uploads, "POST", "/v1/uploads", { token, rawBody: form("one"), headers });
    expect(first.status).toBe(second.status);
    expect(second.text).toBe(first.text);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    const other = await call(uploads, "POST", "/v1/uploads", { token, rawBody: form("two"), headers });
    expect(other.status).toBe(409);
    expect(other.json.error).toBe("IDEMPOTENCY_KEY_REUSED");
  });
});

describe("Idempotency-Key: work in progress, crashes, failures, expiry", () => {
  // A POST that debits 5 tokens, then waits until the test lets it answer (or forever: a crash).
  function billedRoute(opts: { debit: boolean }) {
    let charged!: () => void;
    const chargedP = new Promise<void>((r) => (charged = r));
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const route = methods({
      POST: withAccount({}, async ({ db, principal }) => {
        if (opts.debit) await db.transaction((tx) => debitTokens(tx, { accountId: principal.account.id, amount: 5, operation: "test_op", reference: "ref_crash" }));
        charged();
        await gate;
        return Response.json({ done: true }, { status: 201 });
      }),
    });
    return { route, charged: chargedP, release };
  }
  const lapseLease = async (scope: string, key: string) => {
    const db = await getDb();
    const rows = await db.update(idempotencyKeys).set({ lockedUntil: new Date(Date.now() - 1000) }).where(eq(idempotencyKeys.key, key)).returning();
    expect(rows.filter((r) => r.scope === scope)).toHaveLength(1);
  };

  it("a crash between the debit and the answer: the retry is not charged again and names the charge", async () => {
    const { token, account } = await testAccount({ tokens: 50 });
    const headers = { "Idempotency-Key": "crash-1" };
    const crashed = billedRoute({ debit: true });
    void call(crashed.route, "POST", "/v1/test/billed", { token, headers }); // never answers: the process "died"
    await crashed.charged;
    expect(await balance(account.id)).toBe(45);
    await lapseLease(account.id, "crash-1"); // time passes: the dead attempt's lease lapses

    const retry = billedRoute({ debit: true });
    retry.release();
    const res = await call(retry.route, "POST", "/v1/test/billed", { token, headers });
    expect(res.status).toBe(409);
    expect(res.json).toMatchObject({ error: "IDEMPOTENT_REQUEST_INTERRUPTED", details: { operation: "test_op", reference: "ref_crash", wallet_transaction_id: expect.stringMatching(/^wtx_/) } });
    expect(await balance(account.id)).toBe(45);
    expect(await debits(account.id)).toHaveLength(1);
    const again = await call(retry.route, "POST", "/v1/test/billed", { token, headers });
    expect(again.status).toBe(409);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await balance(account.id)).toBe(45);
  });

  it("a crash before any charge: once the lease lapses the retry runs (and is charged once)", async () => {
    const { token, account } = await testAccount({ tokens: 50 });
    const headers = { "Idempotency-Key": "crash-2" };
    const crashed = billedRoute({ debit: false });
    void call(crashed.route, "POST", "/v1/test/billed", { token, headers });
    await crashed.charged;
    await lapseLease(account.id, "crash-2");
    const retry = billedRoute({ debit: true });
    retry.release();
    const res = await call(retry.route, "POST", "/v1/test/billed", { token, headers });
    expect(res.status).toBe(201);
    expect(await balance(account.id)).toBe(45);
  });

  it("a duplicate waits for the first and gets its answer; past IDEMPOTENCY_WAIT_SECONDS it is a 409 with Retry-After", async () => {
    const { token, account } = await testAccount({ tokens: 50 });
    const slow = billedRoute({ debit: true });
    const first = call(slow.route, "POST", "/v1/test/billed", { token, headers: { "Idempotency-Key": "slow-1" } });
    await slow.charged;
    const waiting = call(slow.route, "POST", "/v1/test/billed", { token, headers: { "Idempotency-Key": "slow-1" } });
    await new Promise((r) => setTimeout(r, 200));
    slow.release();
    const [a, b] = await Promise.all([first, waiting]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(b.headers.get("idempotent-replayed")).toBe("true");
    expect(await balance(account.id)).toBe(45);

    process.env.IDEMPOTENCY_WAIT_SECONDS = "0";
    resetConfig();
    const stuck = billedRoute({ debit: false });
    void call(stuck.route, "POST", "/v1/test/billed", { token, headers: { "Idempotency-Key": "slow-2" } });
    await stuck.charged;
    const busy = await call(stuck.route, "POST", "/v1/test/billed", { token, headers: { "Idempotency-Key": "slow-2" } });
    expect(busy.status).toBe(409);
    expect(busy.json.error).toBe("IDEMPOTENCY_REQUEST_IN_PROGRESS");
    expect(busy.headers.get("retry-after")).toBe("5");
    stuck.release();
  });

  it("a 500 that charged nothing frees the key: the retry runs", async () => {
    const { token } = await testAccount({ tokens: 50 });
    let calls = 0;
    const flaky = methods({
      POST: withAccount({}, async () => {
        if (++calls === 1) throw new Error("transient");
        return Response.json({ ok: calls }, { status: 201 });
      }),
    });
    const headers = { "Idempotency-Key": "flaky-1" };
    expect((await call(flaky, "POST", "/v1/test/flaky", { token, headers })).status).toBe(500);
    const res = await call(flaky, "POST", "/v1/test/flaky", { token, headers });
    expect(res.status).toBe(201);
    expect(res.json).toEqual({ ok: 2 });
    expect((await call(flaky, "POST", "/v1/test/flaky", { token, headers })).json).toEqual({ ok: 2 });
  });

  it("keys expire after 24 hours and the retention sweep deletes them; the key can then be used again", async () => {
    const { token, account } = await testAccount({ tokens: 50 });
    const headers = { "Idempotency-Key": "old-key" };
    expect((await call(generate, "POST", PATH, { token, body: qrBody(1), headers })).status).toBe(200);
    const db = await getDb();
    const [row] = await db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, "old-key"));
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBe(24 * 3_600_000);
    expect((await sweepOnce(db)).idempotencyKeys).toBe(0);
    expect((await sweepOnce(db, new Date(Date.now() + 24 * 3_600_000 + 1000))).idempotencyKeys).toBeGreaterThanOrEqual(1);
    const res = await call(generate, "POST", PATH, { token, body: qrBody(2), headers });
    expect(res.status).toBe(200);
    expect(res.headers.get("idempotent-replayed")).toBeNull();
    expect(await balance(account.id)).toBe(47);
  });
});
