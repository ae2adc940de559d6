import { describe, expect, it } from "vitest";
import * as wallet from "@/app/v1/wallet/route";
import * as transactions from "@/app/v1/wallet/transactions/route";
import * as usage from "@/app/v1/wallet/usage/route";
import { getDb } from "@/lib/foundation/db/client";
import { grantTokens } from "@/lib/domain/wallet/grant-tokens";
import { debitTokens } from "@/lib/domain/wallet/debit-tokens";
import { refundDebit } from "@/lib/domain/wallet/refund-debit";
import { call, testAccount } from "../http";
import { fieldErrorList } from "@/lib/client/field-errors";

describe("GET /v1/wallet", () => {
  it("shows the balance, starting with the signup tokens", async () => {
    const { token } = await testAccount({ tokens: 100 });
    const res = await call(wallet, "GET", "/v1/wallet", { token });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ balance: 100 });
  });
});

describe("GET /v1/wallet/transactions", () => {
  it("lists the ledger newest first in the contract's envelope", async () => {
    const { token, account } = await testAccount({ tokens: 100 });
    const db = await getDb();
    await debitTokens(db, { accountId: account.id, amount: 30, operation: "bg_remove", reference: "job_1" });
    const res = await call(transactions, "GET", "/v1/wallet/transactions", { token });
    expect(res.status).toBe(200);
    expect(Object.keys(res.json).sort()).toEqual(["data", "links", "message", "meta"]);
    expect(res.json.data.map((t: any) => [t.type, t.amount, t.balance_after, t.operation])).toEqual([
      ["debit", -30, 70, "bg_remove"],
      ["grant", 100, 100, "signup_bonus"],
    ]);
    expect(res.json.data[0]).toMatchObject({ id: expect.stringMatching(/^wtx_/), reference: "job_1", created_at: expect.any(String) });
    // Every field on every entry, null when it does not apply (refund_of is set on refunds only;
    // spent_by on debits made in a request: these were written directly, so by nobody).
    for (const entry of res.json.data) expect(Object.keys(entry).sort()).toEqual(["amount", "balance_after", "created_at", "id", "note", "operation", "reference", "refund_of", "spent_by", "type"]);
    expect(res.json.data.map((t: any) => t.refund_of)).toEqual([null, null]);
    expect(res.json.data.map((t: any) => t.spent_by)).toEqual([null, null]);
    expect(res.json.meta).toMatchObject({ path: "http://localhost:3000/v1/wallet/transactions", per_page: 20 });
    expect(res.json.links).toMatchObject({ prev: null, next: null });
    expect(typeof res.json.message).toBe("string");
  });

  it("walks every entry exactly once by following links.next", async () => {
    const { token, account } = await testAccount({ tokens: 1 });
    const db = await getDb();
    for (let i = 0; i < 24; i++) await grantTokens(db, { accountId: account.id, amount: i + 1, operation: "operator_grant" });
    const seen: string[] = [];
    let url: string | null = "/v1/wallet/transactions?limit=7";
    let pages = 0;
    while (url) {
      const path: string = url.replace("http://localhost:3000", "");
      const res = await call(transactions, "GET", path, { token });
      expect(res.status).toBe(200);
      expect(res.json.data.length).toBeLessThanOrEqual(7);
      seen.push(...res.json.data.map((t: any) => t.id));
      url = res.json.links.next;
      pages++;
    }
    expect(pages).toBe(4);
    expect(seen).toHaveLength(25);
    expect(new Set(seen).size).toBe(25);
    const last = await call(transactions, "GET", "/v1/wallet/transactions?limit=7&page=4", { token });
    expect(last.json.links.last).toContain("page=4");
    expect(last.json.links.prev).toContain("page=3");
  });

  it.each([
    ["limit=0", "limit"],
    ["limit=101", "limit"],
    ["limit=abc", "limit"],
    ["page=0", "page"],
    ["limt=5", "limt"],
  ])("answers %s with 400 naming %s", async (qs, field) => {
    const { token } = await testAccount();
    const res = await call(transactions, "GET", `/v1/wallet/transactions?${qs}`, { token });
    expect(res.status).toBe(400);
    expect(fieldErrorList(res.json).map((f) => f.field)).toContain(field);
  });

  it("accepts limit=100 and defaults to 20", async () => {
    const { token, account } = await testAccount({ tokens: 1 });
    const db = await getDb();
    for (let i = 0; i < 25; i++) await grantTokens(db, { accountId: account.id, amount: 1, operation: "operator_grant" });
    expect((await call(transactions, "GET", "/v1/wallet/transactions", { token })).json.data).toHaveLength(20);
    const max = await call(transactions, "GET", "/v1/wallet/transactions?limit=100", { token });
    expect(max.json.data).toHaveLength(26);
    expect(max.json.meta.per_page).toBe(100);
  });

  it("never shows another account's entries", async () => {
    const a = await testAccount({ tokens: 10 });
    const b = await testAccount({ tokens: 20 });
    const res = await call(transactions, "GET", "/v1/wallet/transactions", { token: b.token });
    expect(res.json.data).toHaveLength(1);
    expect(res.json.data[0].amount).toBe(20);
    expect(JSON.stringify(res.json)).not.toContain(a.account.id);
  });
});

describe("GET /v1/wallet/usage", () => {
  it("sums spending and grants per day", async () => {
    const { token, account } = await testAccount({ tokens: 500 });
    const db = await getDb();
    await debitTokens(db, { accountId: account.id, amount: 150, operation: "bg_remove", reference: "job_a" });
    const res = await call(usage, "GET", "/v1/wallet/usage?days=7", { token });
    expect(res.status).toBe(200);
    expect(res.json.data).toHaveLength(7);
    expect(res.json.data.at(-1)).toEqual({ date: new Date().toISOString().slice(0, 10), spent: 150, granted: 500 });
  });

  it("counts spending as debits net of refunds: a purchase is not negative spending", async () => {
    const { token, account } = await testAccount({ tokens: 100 });
    const db = await getDb();
    await grantTokens(db, { accountId: account.id, amount: 5000, operation: "token_pack", reference: "cs_test", type: "purchase" });
    const first = await debitTokens(db, { accountId: account.id, amount: 60, operation: "bg_remove", reference: "job_b" });
    await debitTokens(db, { accountId: account.id, amount: 30, operation: "bg_remove", reference: "job_c" });
    await refundDebit(db, { accountId: account.id, debitId: first.id, reason: "failed" });
    const res = await call(usage, "GET", "/v1/wallet/usage?days=1", { token });
    expect(res.json.data).toEqual([{ date: new Date().toISOString().slice(0, 10), spent: 30, granted: 100 }]);
  });
});
