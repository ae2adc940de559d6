import { describe, expect, it } from "vitest";
import * as checkoutRoute from "@/app/v1/billing/checkout/route";
import * as portalRoute from "@/app/v1/billing/portal/route";
import * as accountRoute from "@/app/v1/account/route";
import * as webhook from "@/app/api/stripe/webhook/route";
import { call, testAccount } from "../http";
import { stripeStandInForFile } from "../support/stripe-stand-in-for-file";
import { balanceOf } from "../jobs/bg-remove-harness";

// Premium by monthly subscription: the real `stripe` SDK against the local stand-in,
// and subscription and invoice events signed as Stripe signs them.
const SECRET = "whsec_test_premium";
const standIn = stripeStandInForFile(SECRET);

const plan = async (token: string) => (await call(accountRoute, "GET", "/v1/account", { token })).json.plan as string;
const now = () => Math.floor(Date.now() / 1000);

/** Delivers an event created at `created` (seconds): Stripe orders a subscription's events by it. */
async function deliver(type: string, object: unknown, created = now()) {
  const { payload, header } = standIn().signedEvent(type, object, { created });
  const res = await webhook.POST(new Request("http://localhost:3000/api/stripe/webhook", { method: "POST", headers: { "stripe-signature": header }, body: payload }));
  return (await res.json()) as { outcome: string };
}

/** An account that has opened Premium's checkout, and so has a Stripe customer. */
async function subscriber() {
  const acct = await testAccount();
  const res = await call(checkoutRoute, "POST", "/v1/billing/checkout", { token: acct.token, body: { plan: "premium" } });
  expect(res.status).toBe(200);
  const customer = standIn().calls.findLast((c) => c.path === "/v1/checkout/sessions")!.params.customer as string;
  return { ...acct, customer };
}

const subscription = (customer: string, status: string, periodEnd = now() + 30 * 86400, id = `sub_${Math.random().toString(36).slice(2)}`) => ({
  id,
  object: "subscription",
  customer,
  status,
  cancel_at_period_end: false,
  metadata: {},
  items: { object: "list", data: [{ id: "si_1", current_period_end: periodEnd }] },
});

describe("Premium by subscription", () => {
  it("opens Checkout in subscription mode, monthly, at the configured price", async () => {
    const { account } = await subscriber();
    const params = standIn().calls.findLast((c) => c.path === "/v1/checkout/sessions")!.params;
    expect(params).toMatchObject({
      mode: "subscription",
      client_reference_id: account.id,
      line_items: [{ quantity: "1", price_data: { currency: "usd", unit_amount: "2900", recurring: { interval: "month" }, product_data: { name: "Print Studio Premium" } } }],
      subscription_data: { metadata: { account_id: account.id, plan: "premium" } },
      success_url: "http://localhost:3000/wallet/top-up?premium=started",
    });
  });

  it("takes either a pack or the plan, never both or neither", async () => {
    const { token } = await testAccount();
    const post = (body: unknown) => call(checkoutRoute, "POST", "/v1/billing/checkout", { token, body });
    expect((await post({ pack: "tokens-1000", plan: "premium" })).status).toBe(400);
    expect((await post({})).status).toBe(400);
    const gold = await post({ plan: "gold" });
    expect(gold.status).toBe(400);
    expect(gold.json.details.fields[0].field).toBe("plan");
  });

  it("follows the subscription: active is Premium, canceled is free, and an older event arriving late changes nothing", async () => {
    const { token, customer } = await subscriber();
    expect(await plan(token)).toBe("free");
    const sub = subscription(customer, "active");
    const t = now();
    expect((await deliver("customer.subscription.created", sub, t)).outcome).toBe("recorded");
    expect(await plan(token)).toBe("premium");
    expect((await deliver("customer.subscription.updated", { ...sub, status: "canceled" }, t + 20)).outcome).toBe("recorded");
    expect(await plan(token)).toBe("free");
    // The `updated` (active) of t + 10 comes after the cancel of t + 20: skipped.
    expect((await deliver("customer.subscription.updated", sub, t + 10)).outcome).toBe("ignored");
    expect(await plan(token)).toBe("free");
  });

  it("out of order: updated before created still ends on the newest state", async () => {
    const { token, customer } = await subscriber();
    const sub = subscription(customer, "active");
    const t = now();
    await deliver("customer.subscription.updated", { ...sub, status: "past_due" }, t + 5);
    await deliver("customer.subscription.created", { ...sub, status: "incomplete" }, t);
    // past_due (Stripe retrying the card) keeps Premium.
    expect(await plan(token)).toBe("premium");
    await deliver("customer.subscription.deleted", { ...sub, status: "canceled" }, t + 9);
    expect(await plan(token)).toBe("free");
  });

  it("unpaid keeps Premium for the grace period after the paid month, then not", async () => {
    const a = await subscriber();
    await deliver("customer.subscription.created", subscription(a.customer, "unpaid", now() - 2 * 86400));
    expect(await plan(a.token)).toBe("premium");
    const b = await subscriber();
    await deliver("customer.subscription.created", subscription(b.customer, "unpaid", now() - 10 * 86400));
    expect(await plan(b.token)).toBe("free");
  });

  it("each paid invoice of the subscription brings the month's tokens, once", async () => {
    const { token, customer } = await subscriber();
    const invoice = { id: "in_test_month1", object: "invoice", number: "PS-0001", customer, parent: { type: "subscription_details", subscription_details: { subscription: "sub_x", metadata: {} } } };
    expect((await deliver("invoice.paid", invoice)).outcome).toBe("credited");
    expect(await balanceOf(token)).toBe(2100);
    expect((await deliver("invoice.paid", invoice)).outcome).toBe("already_credited");
    expect(await balanceOf(token)).toBe(2100);
    // A one-off invoice (no subscription) brings nothing.
    expect((await deliver("invoice.paid", { ...invoice, id: "in_test_oneoff", parent: null })).outcome).toBe("ignored");
    expect(await balanceOf(token)).toBe(2100);
  });

  it("opens Stripe's customer portal for the account's customer", async () => {
    const { token, customer } = await subscriber();
    const res = await call(portalRoute, "POST", "/v1/billing/portal", { token });
    expect(res.status).toBe(200);
    expect(res.json.portal_url).toBe(`${standIn().url}/portal/${customer}`);
    expect(standIn().calls.findLast((c) => c.path === "/v1/billing_portal/sessions")!.params).toEqual({ customer, return_url: "http://localhost:3000/wallet/top-up" });
  });
});
