import { describe, expect, it } from "vitest";
import { eq, sum } from "drizzle-orm";
import { getDb } from "@/lib/foundation/db/client";
import { walletTransactions } from "@/lib/foundation/db/schema";
import { ApiError } from "@/lib/foundation/http/api-error";
import { testAccount } from "@/test/http";
import { debitTokens } from "./debit-tokens";
import { refundDebit } from "./refund-debit";
import { getBalance } from "./get-balance";

async function ledgerSum(accountId: string) {
  const db = await getDb();
  const [row] = await db.select({ total: sum(walletTransactions.amount) }).from(walletTransactions).where(eq(walletTransactions.accountId, accountId));
  return Number(row?.total ?? 0);
}

describe("wallet", () => {
  it("never overdraws under concurrent debits, and the ledger sums to the balance", async () => {
    const { account } = await testAccount({ tokens: 1_000 });
    const db = await getDb();
    const attempts = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => debitTokens(db, { accountId: account.id, amount: 150, operation: "bg_remove", reference: `job_${i}` })),
    );
    const ok = attempts.filter((a) => a.status === "fulfilled").length;
    const refused = attempts.filter((a) => a.status === "rejected");
    expect(ok).toBe(6);
    expect(refused).toHaveLength(14);
    for (const r of refused) expect(((r as PromiseRejectedResult).reason as ApiError).status).toBe(402);
    expect(await getBalance(db, account.id)).toBe(100);
    expect(await ledgerSum(account.id)).toBe(100);
  });

  it("answers a short balance with the contract's 402 body", async () => {
    const { account } = await testAccount({ tokens: 40 });
    const db = await getDb();
    const err = await debitTokens(db, { accountId: account.id, amount: 150, operation: "bg_remove", reference: "job_x" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    const e = err as ApiError;
    expect(e.status).toBe(402);
    expect(e.code).toBe("INSUFFICIENT_TOKENS");
    expect(e.extraBody).toEqual({ balance: 40, shortfall: 110, top_up_url: "http://localhost:3000/wallet/top-up" });
    expect(await getBalance(db, account.id)).toBe(40);
  });

  it("refunds a debit exactly once, even when refunds race", async () => {
    const { account } = await testAccount({ tokens: 300 });
    const db = await getDb();
    const debit = await debitTokens(db, { accountId: account.id, amount: 150, operation: "bg_remove", reference: "job_r" });
    const results = await Promise.all(Array.from({ length: 5 }, () => refundDebit(db, { accountId: account.id, debitId: debit.id, reason: "Processing failed" })));
    expect(results.filter((r) => r.refunded)).toHaveLength(1);
    expect(await getBalance(db, account.id)).toBe(300);
    const rows = await db.select().from(walletTransactions).where(eq(walletTransactions.refundOf, debit.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ type: "refund", amount: 150, balanceAfter: 300, reference: "job_r", note: "Processing failed" });
  });

  it("rolls the debit back when the work it pays for fails in the same transaction", async () => {
    const { account } = await testAccount({ tokens: 200 });
    const db = await getDb();
    await expect(
      db.transaction(async (tx) => {
        await debitTokens(tx, { accountId: account.id, amount: 150, operation: "bg_remove", reference: "job_t" });
        throw new Error("job row insert failed");
      }),
    ).rejects.toThrow("job row insert failed");
    expect(await getBalance(db, account.id)).toBe(200);
    expect(await ledgerSum(account.id)).toBe(200);
  });

  it("refuses to refund another account's debit or more than was debited", async () => {
    const a = await testAccount({ tokens: 300 });
    const b = await testAccount({ tokens: 300 });
    const db = await getDb();
    const debit = await debitTokens(db, { accountId: a.account.id, amount: 100, operation: "qr", reference: "q" });
    await expect(refundDebit(db, { accountId: b.account.id, debitId: debit.id, reason: "x" })).rejects.toThrow(/not found/);
    await expect(refundDebit(db, { accountId: a.account.id, debitId: debit.id, reason: "x", amount: 101 })).rejects.toThrow(/out of range/);
    expect(await getBalance(db, b.account.id)).toBe(300);
  });
});
