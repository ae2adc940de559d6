import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import * as packsRoute from "@/app/v1/billing/packs/route";
import * as checkoutRoute from "@/app/v1/billing/checkout/route";
import * as checkoutStatusRoute from "@/app/v1/billing/checkout/[sessionId]/route";
import * as transactionsRoute from "@/app/v1/wallet/transactions/route";
import * as webhook from "@/app/api/stripe/webhook/route";
import { resetConfig } from "@/lib/foundation/config";
import { getDb } from "@/lib/foundation/db/client";
import { accounts } from "@/lib/foundation/db/schema";
import { call, testAccount } from "../http";
import { stripeStandInForFile } from "../support/stripe-stand-in-for-file";
import { balanceOf } from "../jobs/bg-remove-harness";

// The real `stripe` SDK against a local stand-in of the Stripe API (STRIPE_API_URL),
// and webhook deliveries signed the way Stripe signs them.
const SECRET = "whsec_test_billing";
const standIn = stripeStandInForFile(SECRET);

const checkout = (token: string, body: unknown) => call(checkoutRoute, "POST", "/v1/billing/checkout", { token, body });
const status = (token: string, sessionId: string) => call(checkoutStatusRoute, "GET", `/v1/billing/checkout/${sessionId}`, { token, params: { sessionId } });

async function deliver(type: string, object: unknown, opts: Parameters<ReturnType<typeof standIn>["signedEvent"]>[2] = {}) {
  const { payload, header } = standIn().signedEvent(type, object, opts);
  const res = await webhook.POST(new Request("http://localhost:3000/api/stripe/webhook", { method: "POST", headers: { "content-type": "application/json", "stripe-signature": header }, body: payload }));
  return { status: res.status, json: await res.json() };
}

/** A checkout opened through the API, and the session as Stripe holds it once paid. */
async function paidSession(token: string, pack = "tokens-1000") {
  const res = await checkout(token, { pack });
  expect(res.status).toBe(200);
  const session = standIn().sessions.get(res.json.session_id)!;
  Object.assign(session, { status: "complete", payment_status: "paid", payment_intent: "pi_test_1" });
  return session;
}

describe("token packs and checkout", () => {
  it("lists the packs with the price per 1,000 tokens, and says whether cards are taken", async () => {
    const { token } = await testAccount();
    const res = await call(packsRoute, "GET", "/v1/billing/packs", { token });
    expect(res.status).toBe(200);
    expect(res.json.card_payments).toBe(true);
    expect(res.json.packs).toEqual([
      { id: "tokens-1000", tokens: 1000, price: 1000, currency: "usd", price_per_1000_tokens: 1000 },
      { id: "tokens-5000", tokens: 5000, price: 4500, currency: "usd", price_per_1000_tokens: 900 },
      { id: "tokens-25000", tokens: 25000, price: 20000, currency: "usd", price_per_1000_tokens: 800 },
    ]);
    expect(res.json.premium).toEqual({ monthly_price: 2900, currency: "usd", monthly_tokens: 2000 });
  });

  it("opens a Checkout Session with the pack, the account and one reused customer", async () => {
    const { token, account, email } = await testAccount();
    const first = await checkout(token, { pack: "tokens-5000" });
    expect(first.status).toBe(200);
    expect(first.json).toEqual({ checkout_url: expect.stringMatching(new RegExp(`^${standIn().url}/pay/cs_test_`)), session_id: expect.stringMatching(/^cs_test_/) });

    const sessionCall = standIn().calls.findLast((c) => c.path === "/v1/checkout/sessions")!;
    const customerId = (await (await getDb()).select().from(accounts).where(eq(accounts.id, account.id)))[0]!.stripeCustomerId;
    expect(customerId).toMatch(/^cus_/);
    expect(sessionCall.params).toMatchObject({
      mode: "payment",
      customer: customerId,
      client_reference_id: account.id,
      line_items: [{ quantity: "1", price_data: { currency: "usd", unit_amount: "4500", product_data: { name: "5,000 tokens" } } }],
      metadata: { account_id: account.id, pack: "tokens-5000", tokens: "5000" },
      success_url: "http://localhost:3000/wallet/top-up?session={CHECKOUT_SESSION_ID}",
      cancel_url: "http://localhost:3000/wallet/top-up?canceled=1",
    });
    expect(standIn().customers.get(customerId!)).toMatchObject({ email, metadata: { account_id: account.id } });

    const customersBefore = standIn().calls.filter((c) => c.path === "/v1/customers").length;
    const second = await checkout(token, { pack: "tokens-1000" });
    expect(second.status).toBe(200);
    expect(standIn().calls.filter((c) => c.path === "/v1/customers").length).toBe(customersBefore);
    expect(standIn().calls.findLast((c) => c.path === "/v1/checkout/sessions")!.params.customer).toBe(customerId);

    const open = await status(token, first.json.session_id);
    expect(open.json).toMatchObject({ session_id: first.json.session_id, status: "open", tokens: 5000, amount: 4500, currency: "usd", wallet_transaction_id: null, balance: 100 });
  });

  it("refuses an unknown pack, a wrong type and unknown fields with a 400 naming the field", async () => {
    const { token } = await testAccount();
    const unknown = await checkout(token, { pack: "tokens-7" });
    expect(unknown.status).toBe(400);
    expect(unknown.json).toMatchObject({ error: "UNKNOWN_PACK", details: { field: "pack" } });
    const wrongType = await checkout(token, { pack: 5000 });
    expect(wrongType.status).toBe(400);
    expect(wrongType.json.details.fields[0].field).toBe("pack");
    expect((await checkout(token, { pack: "tokens-1000", tokens: 1e9 })).status).toBe(400);
    expect((await checkout(token, {})).status).toBe(400);
  });

  it("answers 502 when Stripe refuses, and records no checkout", async () => {
    const { token } = await testAccount();
    const sessionsBefore = standIn().sessions.size;
    // Not a 5xx: the SDK retries those (maxNetworkRetries), as it should.
    standIn().failNextCall(400, "invalid_request_error", "No such customer");
    const res = await checkout(token, { pack: "tokens-1000" });
    expect(res.status).toBe(502);
    expect(res.json.error).toBe("PAYMENT_PROVIDER_ERROR");
    expect(res.json.message).toContain("Nothing was charged");
    expect(standIn().sessions.size).toBe(sessionsBefore);
  });

  it("answers 503 BILLING_NOT_CONFIGURED without a Stripe key, and the packs say cards are off", async () => {
    delete process.env.STRIPE_SECRET_KEY;
    resetConfig();
    const { token } = await testAccount();
    const res = await checkout(token, { pack: "tokens-1000" });
    expect(res.status).toBe(503);
    expect(res.json.error).toBe("BILLING_NOT_CONFIGURED");
    expect((await call(packsRoute, "GET", "/v1/billing/packs", { token })).json.card_payments).toBe(false);
    expect((await deliver("checkout.session.completed", { id: "cs_test_x" })).status).toBe(503);
  });

  it("shows a checkout only to its own account (404 to another)", async () => {
    const { token } = await testAccount();
    const stranger = await testAccount();
    const res = await checkout(token, { pack: "tokens-1000" });
    expect((await status(stranger.token, res.json.session_id)).status).toBe(404);
    expect((await status(token, "cs_test_nope")).status).toBe(404);
    expect((await status(token, "not-a-session")).status).toBe(400);
  });
});

describe("Stripe webhooks credit a paid checkout exactly once", () => {
  it("credits the pack as a purchase in the ledger, once however often the event comes", async () => {
    const { token } = await testAccount();
    const session = await paidSession(token);
    const first = await deliver("checkout.session.completed", session);
    expect(first).toEqual({ status: 200, json: { received: true, outcome: "credited" } });
    expect(await balanceOf(token)).toBe(1100);
    const again = await deliver("checkout.session.completed", session);
    expect(again.json.outcome).toBe("already_credited");
    expect(await balanceOf(token)).toBe(1100);

    const done = await status(token, session.id);
    expect(done.json).toMatchObject({ status: "paid", balance: 1100, wallet_transaction_id: expect.stringMatching(/^wtx_/), paid_at: expect.any(String) });
    const ledger = await call(transactionsRoute, "GET", "/v1/wallet/transactions", { token });
    expect(ledger.json.data[0]).toMatchObject({ id: done.json.wallet_transaction_id, type: "purchase", amount: 1000, balance_after: 1100, operation: "token_pack", reference: session.id });
  });

  it("ten copies delivered at the same moment credit once", async () => {
    const { token } = await testAccount();
    const session = await paidSession(token, "tokens-25000");
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => deliver("checkout.session.completed", session, { id: "evt_same" })));
    expect(outcomes.every((o) => o.status === 200)).toBe(true);
    expect(outcomes.filter((o) => o.json.outcome === "credited")).toHaveLength(1);
    expect(await balanceOf(token)).toBe(25100);
  });

  it("a delayed payment: completed unpaid waits, then the async success credits; its failure never does", async () => {
    const { token } = await testAccount();
    const session = await paidSession(token);
    session.payment_status = "unpaid";
    expect((await deliver("checkout.session.completed", session)).json.outcome).toBe("recorded");
    expect((await status(token, session.id)).json.status).toBe("awaiting_payment");
    expect(await balanceOf(token)).toBe(100);
    session.payment_status = "paid";
    expect((await deliver("checkout.session.async_payment_succeeded", session)).json.outcome).toBe("credited");
    expect(await balanceOf(token)).toBe(1100);

    const failing = await paidSession(token);
    failing.payment_status = "unpaid";
    await deliver("checkout.session.completed", failing);
    expect((await deliver("checkout.session.async_payment_failed", failing)).json.outcome).toBe("recorded");
    expect((await status(token, failing.id)).json.status).toBe("failed");
    failing.payment_status = "paid";
    expect((await deliver("checkout.session.async_payment_succeeded", failing)).json.outcome).toBe("ignored");
    expect(await balanceOf(token)).toBe(1100);
  });

  it("out of order: the async success before the completed event credits once", async () => {
    const { token } = await testAccount();
    const session = await paidSession(token);
    expect((await deliver("checkout.session.async_payment_succeeded", session)).json.outcome).toBe("credited");
    expect((await deliver("checkout.session.completed", session)).json.outcome).toBe("already_credited");
    expect(await balanceOf(token)).toBe(1100);
  });

  it("does not credit a paid amount that differs from the pack sold", async () => {
    const { token } = await testAccount();
    const session = await paidSession(token);
    session.amount_total = 1;
    expect((await deliver("checkout.session.completed", session)).json.outcome).toBe("ignored");
    expect(await balanceOf(token)).toBe(100);
    expect((await status(token, session.id)).json.status).toBe("open");
  });

  it("refuses a bad, missing or stale signature with 400 and changes nothing; ignores unknown types", async () => {
    const { token } = await testAccount();
    const session = await paidSession(token);
    expect((await deliver("checkout.session.completed", session, { secret: "whsec_someone_else" })).json.error).toBe("INVALID_SIGNATURE");
    const stale = await deliver("checkout.session.completed", session, { timestamp: Math.floor(Date.now() / 1000) - 3600 });
    expect(stale.status).toBe(400);
    expect(stale.json.message).toMatch(/tolerance/i);
    const { payload } = standIn().signedEvent("checkout.session.completed", session);
    const missing = await webhook.POST(new Request("http://localhost:3000/api/stripe/webhook", { method: "POST", body: payload }));
    expect(missing.status).toBe(400);
    expect((await missing.json()).error).toBe("MISSING_SIGNATURE");
    // The signature covers the exact bytes: an edited body fails.
    const { header } = standIn().signedEvent("checkout.session.completed", session);
    const edited = await webhook.POST(new Request("http://localhost:3000/api/stripe/webhook", { method: "POST", headers: { "stripe-signature": header }, body: payload.replace('"paid"', '"paid" ') }));
    expect(edited.status).toBe(400);
    expect(await balanceOf(token)).toBe(100);

    expect(await deliver("customer.created", { id: "cus_x" })).toEqual({ status: 200, json: { received: true, outcome: "ignored" } });
    expect((await deliver("checkout.session.completed", { ...session, id: "cs_test_not_ours" })).json.outcome).toBe("ignored");
  });
});
