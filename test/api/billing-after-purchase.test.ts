import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import * as checkoutRoute from "@/app/v1/billing/checkout/route";
import * as transactionsRoute from "@/app/v1/wallet/transactions/route";
import * as accountRoute from "@/app/v1/account/route";
import * as releaseRoute from "@/app/v1/operator/holds/release/route";
import * as qrGenerate from "@/app/v1/services/studio/qr/generate/route";
import * as webhook from "@/app/api/stripe/webhook/route";
import * as receiptRoute from "@/app/v1/wallet/transactions/[transactionId]/receipt/route";
import { resetConfig } from "@/lib/foundation/config";
import { call, testAccount } from "../http";
import { stripeStandInForFile } from "../support/stripe-stand-in-for-file";
import { balanceOf } from "../jobs/bg-remove-harness";

// After a purchase: Stripe's receipt for each row paid by card; refunds and disputes of a token pack, delivered as signed Stripe events to the real
// webhook route: the refunded share of the tokens leaves the wallet once, and what was
// already spent holds the account until an operator releases it.
const SECRET = "whsec_test_reversals";
const standIn = stripeStandInForFile(SECRET);
const OPERATOR = "operator-token-for-reversal-tests";

async function deliver(type: string, object: unknown, opts: { id?: string } = {}) {
  const { payload, header } = standIn().signedEvent(type, object, opts);
  const res = await webhook.POST(new Request("http://localhost:3000/api/stripe/webhook", { method: "POST", headers: { "content-type": "application/json", "stripe-signature": header }, body: payload }));
  return { status: res.status, json: await res.json() };
}

/** Buys the 1,000-token pack (1000 cents) through checkout and the paid event; answers its charge as Stripe would describe it. */
async function boughtPack(token: string) {
  const res = await call(checkoutRoute, "POST", "/v1/billing/checkout", { token, body: { pack: "tokens-1000" } });
  expect(res.status).toBe(200);
  const session = standIn().sessions.get(res.json.session_id)!;
  const paymentIntent = `pi_${crypto.randomBytes(6).toString("hex")}`;
  Object.assign(session, { status: "complete", payment_status: "paid", payment_intent: paymentIntent });
  expect((await deliver("checkout.session.completed", session)).json.outcome).toBe("credited");
  return { id: `ch_${crypto.randomBytes(6).toString("hex")}`, object: "charge", amount: 1000, amount_refunded: 0, currency: "usd", payment_intent: paymentIntent, refunded: false };
}

/** A billed operation (1 token a card), to spend tokens and to meet the hold. */
const spend = (token: string, cards: number) =>
  call(qrGenerate, "POST", "/v1/services/studio/qr/generate", {
    token,
    body: { job_id: "J", subjects: Array.from({ length: cards }, (_, i) => ({ student_id: `S${i}`, name: `Student ${i}` })) },
  });

describe("refunds and disputes of a token pack", () => {
  it("a full refund takes the pack's tokens back in a reversal row, once however often the event comes", async () => {
    const { token } = await testAccount();
    const charge = await boughtPack(token);
    expect(await balanceOf(token)).toBe(1100);
    Object.assign(charge, { amount_refunded: 1000, refunded: true });
    const copies = await Promise.all(Array.from({ length: 5 }, () => deliver("charge.refunded", charge, { id: "evt_refund_same" })));
    expect(copies.map((c) => c.json.outcome).sort()).toEqual(["already_credited", "already_credited", "already_credited", "already_credited", "recorded"]);
    expect(await balanceOf(token)).toBe(100);
    const ledger = await call(transactionsRoute, "GET", "/v1/wallet/transactions", { token });
    expect(ledger.json.data[0]).toMatchObject({ type: "reversal", amount: -1000, balance_after: 100, operation: "token_pack_refund" });
    expect((await call(accountRoute, "GET", "/v1/account", { token })).json.hold).toBeNull();
  });

  it("partial refunds each take their share of the cumulative amount, in whatever order they arrive", async () => {
    const { token } = await testAccount();
    const charge = await boughtPack(token);
    // 25% then 60% refunded in all: the later state arrives first and takes 600; the earlier one then takes nothing more.
    expect((await deliver("charge.refunded", { ...charge, amount_refunded: 600 })).json.outcome).toBe("recorded");
    expect(await balanceOf(token)).toBe(500);
    expect((await deliver("charge.refunded", { ...charge, amount_refunded: 250 })).json.outcome).toBe("recorded");
    expect(await balanceOf(token)).toBe(500);
    expect((await deliver("charge.refunded", { ...charge, amount_refunded: 1000, refunded: true })).json.outcome).toBe("recorded");
    expect(await balanceOf(token)).toBe(100);
  });

  it("tokens already spent put the account on hold: billed operations answer 402 ACCOUNT_ON_HOLD until an operator releases it", async () => {
    const { token, email } = await testAccount();
    const charge = await boughtPack(token);
    expect((await spend(token, 900)).status).toBe(200);
    expect(await balanceOf(token)).toBe(200);

    expect((await deliver("charge.dispute.created", { id: `dp_${crypto.randomBytes(6).toString("hex")}`, object: "dispute", amount: 1000, charge: charge.id, payment_intent: charge.payment_intent, status: "needs_response" })).json.outcome).toBe("recorded");
    expect(await balanceOf(token)).toBe(0);
    const account = await call(accountRoute, "GET", "/v1/account", { token });
    expect(account.json.hold).toEqual({ reason: expect.stringMatching(/disputed after 800 of them had been spent/), since: expect.any(String) });

    const held = await spend(token, 1);
    expect(held.status).toBe(402);
    expect(held.json).toMatchObject({ error: "ACCOUNT_ON_HOLD", hold_reason: account.json.hold.reason });
    expect(held.json.message).toMatch(/Contact the operator of this service/);

    // A refund of the same payment after the dispute takes nothing more: the pack is gone once.
    expect((await deliver("charge.refunded", { ...charge, amount_refunded: 1000, refunded: true })).json.outcome).toBe("recorded");
    expect(await balanceOf(token)).toBe(0);

    process.env.OPERATOR_TOKEN = OPERATOR;
    resetConfig();
    try {
      const bad = await call(releaseRoute, "POST", "/v1/operator/holds/release", { token: OPERATOR, body: { email, reason: "" } });
      expect(bad.status).toBe(400);
      const released = await call(releaseRoute, "POST", "/v1/operator/holds/release", { token: OPERATOR, body: { email, reason: "Settled by bank transfer" } });
      expect(released.status).toBe(200);
      expect(released.json.account.hold).toBeNull();
      expect((await call(releaseRoute, "POST", "/v1/operator/holds/release", { token, body: { email, reason: "me" } })).status).toBe(401); // a customer token is no operator
    } finally {
      delete process.env.OPERATOR_TOKEN;
      resetConfig();
    }
    await call(checkoutRoute, "POST", "/v1/billing/checkout", { token, body: { pack: "tokens-1000" } }); // checkout stays open to a held account
    expect((await spend(token, 1)).status).toBe(402); // released, but the wallet is empty: the ordinary 402 now
    expect((await spend(token, 1)).json.error).toBe("INSUFFICIENT_TOKENS");
  });

  it("ignores a refund of a payment that bought no token pack", async () => {
    const { token } = await testAccount();
    const outcome = await deliver("charge.refunded", { id: "ch_other", object: "charge", amount: 2900, amount_refunded: 2900, payment_intent: "pi_not_ours", refunded: true });
    expect(outcome).toEqual({ status: 200, json: expect.objectContaining({ outcome: "ignored" }) });
    expect(await balanceOf(token)).toBe(100);
  });
});

describe("receipts", () => {
  const receipt = (token: string, transactionId: string) => call(receiptRoute, "GET", `/v1/wallet/transactions/${transactionId}/receipt`, { token, params: { transactionId } });

  it("links a token pack to Stripe's receipt for its charge, and only for its own account", async () => {
    const { token } = await testAccount();
    const res = await call(checkoutRoute, "POST", "/v1/billing/checkout", { token, body: { pack: "tokens-1000" } });
    const session = await standIn().complete(res.json.session_id); // paid on the stand-in's page
    expect((await deliver("checkout.session.completed", session)).json.outcome).toBe("credited");
    const [purchase, bonus] = (await call(transactionsRoute, "GET", "/v1/wallet/transactions", { token })).json.data;

    const got = await receipt(token, purchase.id);
    expect(got.status).toBe(200);
    const charge = standIn().paymentIntents.get(String(session.payment_intent))!.latest_charge;
    expect(got.json).toEqual({ transaction_id: purchase.id, receipt_url: charge.receipt_url });
    expect(standIn().calls.findLast((c) => c.path.startsWith("/v1/payment_intents/"))!.params).toMatchObject({ "expand[0]": "latest_charge" });
    expect((await fetch(got.json.receipt_url)).status).toBe(200);

    expect(await receipt(token, bonus.id)).toMatchObject({ status: 404, json: { error: "NO_RECEIPT" } });
    const other = await testAccount();
    expect(await receipt(other.token, purchase.id)).toMatchObject({ status: 404, json: { error: "NOT_FOUND" } });
  });

  it("links a month of Premium to its hosted invoice, and answers 502 when Stripe refuses", async () => {
    const { token, account } = await testAccount();
    await call(checkoutRoute, "POST", "/v1/billing/checkout", { token, body: { plan: "premium" } }); // gives the account its Stripe customer
    const { getDb } = await import("@/lib/foundation/db/client");
    const { accounts } = await import("@/lib/foundation/db/schema");
    const { eq } = await import("drizzle-orm");
    const [row] = await (await getDb()).select().from(accounts).where(eq(accounts.id, account.id));
    const invoice = { id: `in_${crypto.randomBytes(6).toString("hex")}`, object: "invoice", number: "INV-0001", customer: row!.stripeCustomerId, hosted_invoice_url: `${standIn().url}/receipts/INV-0001`, parent: { subscription_details: { subscription: "sub_receipt" } } };
    standIn().invoices.set(invoice.id, invoice);
    expect((await deliver("invoice.paid", invoice)).json.outcome).toBe("credited");
    const [allowance] = (await call(transactionsRoute, "GET", "/v1/wallet/transactions", { token })).json.data;
    expect(allowance.operation).toBe("premium_allowance");
    expect((await receipt(token, allowance.id)).json.receipt_url).toBe(invoice.hosted_invoice_url);

    standIn().failNextCall(404, "invalid_request_error", "No such invoice"); // a 5xx would be retried by the SDK
    const down = await receipt(token, allowance.id);
    expect(down).toMatchObject({ status: 502, json: { error: "PAYMENT_PROVIDER_ERROR" } });
  });
});
