// Auto top-up through the real SDK and a Stripe stand-in: a card saved at checkout,
// one off-session charge however many debits cross the threshold at once, tokens
// credited only from the signed payment_intent.succeeded event, and a declined card
// that turns auto top-up off and tells the owner (webhook event, email, GET).
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as checkoutRoute from "@/app/v1/billing/checkout/route";
import * as autoTopUpRoute from "@/app/v1/billing/auto-top-up/route";
import * as transactionsRoute from "@/app/v1/wallet/transactions/route";
import * as qrGenerate from "@/app/v1/services/studio/qr/generate/route";
import * as webhookEndpointsRoute from "@/app/v1/webhook-endpoints/route";
import * as webhook from "@/app/api/stripe/webhook/route";
import * as receiptRoute from "@/app/v1/wallet/transactions/[transactionId]/receipt/route";
import { getDb } from "@/lib/foundation/db/client";
import { billingAutoTopUpAttempts, webhookDeliveries } from "@/lib/foundation/db/schema";
import { resetConfig } from "@/lib/foundation/config";
import { chargeAutoTopUp } from "@/lib/services/billing/auto-top-up";
import { call, testAccount } from "../http";
import { stripeStandInForFile } from "../support/stripe-stand-in-for-file";
import { smtpServerForFile } from "../support/smtp-test-server";
import { balanceOf } from "../jobs/bg-remove-harness";

const SECRET = "whsec_test_auto_top_up";
const standIn = stripeStandInForFile(SECRET);
const smtp = smtpServerForFile();

async function deliver(type: string, object: unknown) {
  const { payload, header } = standIn().signedEvent(type, object);
  const res = await webhook.POST(new Request("http://localhost:3000/api/stripe/webhook", { method: "POST", headers: { "content-type": "application/json", "stripe-signature": header }, body: payload }));
  return (await res.json()).outcome as string;
}

/** Buys the 1,000-token pack with "save this card" ticked, paid on the stand-in's page. */
async function buyAndSaveCard(token: string) {
  const res = await call(checkoutRoute, "POST", "/v1/billing/checkout", { token, body: { pack: "tokens-1000", save_card: true } });
  expect(res.status).toBe(200);
  const asked = standIn().calls.findLast((c) => c.path === "/v1/checkout/sessions")!;
  expect(asked.params).toMatchObject({ payment_intent_data: { setup_future_usage: "off_session", metadata: { save_card: "1" } } });
  const session = await standIn().complete(res.json.session_id);
  expect(await deliver("checkout.session.completed", session)).toBe("credited");
}

const spend = (token: string, cards: number) =>
  call(qrGenerate, "POST", "/v1/services/studio/qr/generate", { token, body: { job_id: "J", subjects: Array.from({ length: cards }, (_, i) => ({ student_id: `S${i}`, name: `Student ${i}` })) } });

async function attemptsOf(accountId: string) {
  const db = await getDb();
  return db.select().from(billingAutoTopUpAttempts).where(eq(billingAutoTopUpAttempts.accountId, accountId));
}

describe("auto top-up", () => {
  it("needs a saved card, and names bad fields", async () => {
    const { token } = await testAccount();
    const off = await call(autoTopUpRoute, "GET", "/v1/billing/auto-top-up", { token });
    expect(off.json).toEqual({ enabled: false, threshold: 0, pack: null, card: null, in_flight: false, last_failure: null });
    const noCard = await call(autoTopUpRoute, "PUT", "/v1/billing/auto-top-up", { token, body: { enabled: true, threshold: 500, pack: "tokens-1000" } });
    expect([noCard.status, noCard.json.error]).toEqual([409, "NO_SAVED_CARD"]);
    const bad = await call(autoTopUpRoute, "PUT", "/v1/billing/auto-top-up", { token, body: { enabled: "yes", threshold: -1, pack: "tokens-1000", extra: 1 } });
    expect(bad.status).toBe(400);
    expect(bad.json.details.fields.map((f: { field: string }) => f.field).sort()).toEqual(["enabled", "extra", "threshold"]);
    const unknownPack = await call(autoTopUpRoute, "PUT", "/v1/billing/auto-top-up", { token, body: { enabled: false, threshold: 10, pack: "tokens-7" } });
    expect([unknownPack.status, unknownPack.json.error]).toEqual([400, "UNKNOWN_PACK"]);
  });

  it("charges the saved card once when concurrent debits cross the threshold, and credits from the signed event once", async () => {
    const { token, account } = await testAccount();
    await buyAndSaveCard(token);
    const saved = await call(autoTopUpRoute, "GET", "/v1/billing/auto-top-up", { token });
    expect(saved.json.card).toEqual({ label: "visa •••• 4242" });
    const on = await call(autoTopUpRoute, "PUT", "/v1/billing/auto-top-up", { token, body: { enabled: true, threshold: 500, pack: "tokens-1000" } });
    expect(on.json).toMatchObject({ enabled: true, threshold: 500, pack: "tokens-1000" });
    expect(await balanceOf(token)).toBe(1100);

    // Five debits of 130 at once: the balance ends at 450, crossing 500 once or several times.
    standIn().setAutoDeliver(false);
    const results = await Promise.all(Array.from({ length: 5 }, () => spend(token, 130)));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await balanceOf(token)).toBe(450);
    const attempts = await attemptsOf(account.id);
    expect(attempts).toHaveLength(1);
    expect((await call(autoTopUpRoute, "GET", "/v1/billing/auto-top-up", { token })).json.in_flight).toBe(true);
    // A sixth debit while the charge is under way claims nothing more.
    await spend(token, 10);
    expect(await attemptsOf(account.id)).toHaveLength(1);

    // The job's step, run twice as a retry would: one PaymentIntent (the attempt id is Stripe's idempotency key).
    expect(await chargeAutoTopUp(await getDb(), attempts[0]!.id)).toBe("charged");
    expect(await chargeAutoTopUp(await getDb(), attempts[0]!.id)).toBe("charged");
    const charges = standIn().calls.filter((c) => c.path === "/v1/payment_intents" && c.params.metadata && (c.params.metadata as { account_id?: string }).account_id === account.id);
    expect(new Set(charges.map((c) => c.idempotencyKey))).toEqual(new Set([attempts[0]!.id]));
    expect(charges[0]!.params).toMatchObject({ amount: "1000", currency: "usd", off_session: "true", confirm: "true" });
    expect(await balanceOf(token)).toBe(440);

    // Tokens arrive with Stripe's signed event, once.
    const [row] = await attemptsOf(account.id);
    const pi = standIn().paymentIntents.get(row!.paymentIntentId!)!;
    const event = { ...pi, latest_charge: pi.latest_charge.id };
    expect(await deliver("payment_intent.succeeded", event)).toBe("credited");
    expect(await deliver("payment_intent.succeeded", event)).toBe("already_credited");
    expect(await balanceOf(token)).toBe(1440);
    const ledger = await call(transactionsRoute, "GET", "/v1/wallet/transactions", { token });
    expect(ledger.json.data[0]).toMatchObject({ type: "purchase", amount: 1000, operation: "auto_top_up", reference: row!.id });
    // Stripe's receipt for the charge, like a pack bought at checkout.
    const receipt = await call(receiptRoute, "GET", `/v1/wallet/transactions/${ledger.json.data[0].id}/receipt`, { token, params: { transactionId: ledger.json.data[0].id } });
    expect(receipt.json.receipt_url).toBe(pi.latest_charge.receipt_url);
    expect((await call(autoTopUpRoute, "GET", "/v1/billing/auto-top-up", { token })).json).toMatchObject({ enabled: true, in_flight: false });
    standIn().setAutoDeliver(true);
  });

  it("a declined card turns auto top-up off and tells the owner by webhook event, email and the settings", async () => {
    process.env.FETCH_ALLOW_HOSTS = "127.0.0.1";
    resetConfig();
    const { token, account, email } = await testAccount();
    const hook = await call(webhookEndpointsRoute, "POST", "/v1/webhook-endpoints", { token, body: { url: "http://127.0.0.1:9/hook", events: ["billing.auto_top_up_failed"] } });
    expect(hook.status).toBe(201);
    await buyAndSaveCard(token);
    await call(autoTopUpRoute, "PUT", "/v1/billing/auto-top-up", { token, body: { enabled: true, threshold: 1000, pack: "tokens-1000" } });
    await spend(token, 200);
    const [attempt] = await attemptsOf(account.id);
    standIn().failNextCall(402, "card_error", "Your card was declined.", { code: "card_declined", path: "/v1/payment_intents" });
    expect(await chargeAutoTopUp(await getDb(), attempt!.id)).toBe("failed");
    const settings = (await call(autoTopUpRoute, "GET", "/v1/billing/auto-top-up", { token })).json;
    expect(settings).toMatchObject({ enabled: false, in_flight: false, last_failure: { message: expect.stringContaining("Your card was declined.") } });
    const db = await getDb();
    const events = await db.select().from(webhookDeliveries).where(and(eq(webhookDeliveries.accountId, account.id), eq(webhookDeliveries.eventType, "billing.auto_top_up_failed")));
    expect(events).toHaveLength(1);
    expect(events[0]!.payload).toMatchObject({ data: { attempt_id: attempt!.id, auto_top_up_enabled: false } });
    expect((await smtp().waitFor(email, /Auto top-up is off/)).text).toContain("Your card was declined.");
    // Off: the next debit under the threshold charges nothing; turning it on again clears the failure.
    await spend(token, 10);
    expect(await attemptsOf(account.id)).toHaveLength(1);
    const again = await call(autoTopUpRoute, "PUT", "/v1/billing/auto-top-up", { token, body: { enabled: true, threshold: 1000, pack: "tokens-1000" } });
    expect(again.json).toMatchObject({ enabled: true, last_failure: null });
    delete process.env.FETCH_ALLOW_HOSTS;
    resetConfig();
  });
});
