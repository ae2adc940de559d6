import { describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import * as refundsRoute from "@/app/v1/orders/[id]/refunds/route";
import * as cancelRoute from "@/app/v1/orders/[id]/cancel/route";
import * as orderRoute from "@/app/v1/orders/[id]/route";
import * as promosRoute from "@/app/v1/price-sheets/[id]/promo-codes/route";
import * as webhookEndpointsRoute from "@/app/v1/webhook-endpoints/route";
import { getDb } from "@/lib/foundation/db/client";
import { auditEvents, orderRefunds, orders, promoCodes, webhookDeliveries } from "@/lib/foundation/db/schema";
import { printsRendered } from "../support/prints-rendered";
import { call, testAccount } from "../http";
import { parentOf, sellingStudio } from "../support/orders-fixtures";
import { ordersHarness } from "../support/orders-harness";

// Money's edge cases, through the real SDK, the stand-in and the webhook route:
// a refund Stripe later reports failed, a payment that completes after the order
// was canceled, and a cart a promo made free.
const { standIn, smtp, deliver, shop, checkout, orderOf, paidOrder } = ordersHarness("whsec_test_money_edges");

describe("a refund Stripe reports failed", () => {
  it("is reversed in our records once, whichever event says so and however many copies come", async () => {
    const { owner, order, stripeAccount } = await paidOrder();
    const item = order.items[0];
    const res = await call(refundsRoute, "POST", `/v1/orders/${order.id}/refunds`, { token: owner.token, params: { id: order.id }, body: { item_id: item.id } });
    expect(res.status, res.text).toBe(200);
    const refunded = res.json.refunded_amount as number;
    expect(refunded).toBeGreaterThan(0);
    expect(res.json.lab_cost).toBe(0);
    const refund = standIn().refunds.get(res.json.refunds[0].id)!;

    // The card could not take the money back: Stripe says so with refund.failed and charge.refund.updated.
    refund.status = "failed";
    const failed = { ...refund, stripe_account: undefined, failure_reason: "expired_or_canceled_card" };
    const copies = await Promise.all([
      ...Array.from({ length: 3 }, () => deliver("refund.failed", failed, stripeAccount)),
      ...Array.from({ length: 2 }, () => deliver("charge.refund.updated", failed, stripeAccount)),
    ]);
    expect(copies.map((c) => c.status)).toEqual(Array(5).fill(200));
    expect(copies.map((c) => c.json.outcome).sort()).toEqual(["already_recorded", "already_recorded", "already_recorded", "already_recorded", "recorded"]);
    const after = (await orderOf(owner.token, order.id)).json;
    expect(after).toMatchObject({ status: "paid", refunded_amount: 0, lab_cost: order.lab_cost });
    expect(after.items[0].refunded_amount).toBe(0);
    expect(after.refunds).toEqual([expect.objectContaining({ id: refund.id, failed_at: expect.any(String) })]);
    const db = await getDb();
    const [row] = await db.select().from(orderRefunds).where(eq(orderRefunds.stripeRefundId, refund.id));
    expect(row!.failedAt).toBeInstanceOf(Date);
    expect(await db.select().from(auditEvents).where(and(eq(auditEvents.accountId, owner.account.id), eq(auditEvents.action, "order.refund_failed")))).toHaveLength(1);

    // A later refund.updated of the same refund (still failed) changes nothing; the item can be refunded again.
    expect((await deliver("refund.updated", failed, stripeAccount)).json.outcome).toBe("already_recorded");
    const again = await call(refundsRoute, "POST", `/v1/orders/${order.id}/refunds`, { token: owner.token, params: { id: order.id }, body: { item_id: item.id } });
    expect([again.status, again.json.refunded_amount]).toEqual([200, refunded]);
    // A new Stripe refund (a new idempotency key), the failed one still listed as failed.
    expect(again.json.refunds.map((r: { id: string; failed_at: string | null }) => [r.id === refund.id, r.failed_at !== null])).toEqual([
      [true, true],
      [false, false],
    ]);
  });

  it("puts a whole refunded order back to paid, and ignores a failed refund it never recorded or another account's", async () => {
    const { owner, order, stripeAccount } = await paidOrder({ shipping: "school" });
    const whole = await call(refundsRoute, "POST", `/v1/orders/${order.id}/refunds`, { token: owner.token, params: { id: order.id }, body: {} });
    expect(whole.json).toMatchObject({ status: "refunded", refunded_amount: order.total, lab_cost: 0 });
    const refund = standIn().refunds.get(whole.json.refunds[0].id)!;
    const failed = { ...refund, stripe_account: undefined, status: "canceled" };

    const other = await shop();
    expect((await deliver("refund.updated", failed, other.stripeAccount)).json.outcome).toBe("ignored");
    expect((await orderOf(owner.token, order.id)).json.status).toBe("refunded");

    expect((await deliver("refund.updated", failed, stripeAccount)).json.outcome).toBe("recorded");
    expect((await orderOf(owner.token, order.id)).json).toMatchObject({ status: "paid", refunded_amount: 0, lab_cost: order.lab_cost });
    const never = { ...failed, id: "re_never_recorded" };
    expect((await deliver("refund.failed", never, stripeAccount)).json.outcome).toBe("ignored");
  });
});

describe("a whole refund Stripe reports failed, on an order the studio had moved on", () => {
  const move = async (token: string, id: string, status: string) => {
    const res = await call(orderRoute, "PATCH", `/v1/orders/${id}`, { token, params: { id }, body: { status } });
    expect(res.status, res.text).toBe(200);
  };
  const refund = async (token: string, id: string, body: Record<string, unknown>) => {
    const res = await call(refundsRoute, "POST", `/v1/orders/${id}/refunds`, { token, params: { id }, body });
    expect(res.status, res.text).toBe(200);
    return res.json;
  };
  const failedCopy = (id: string) => ({ ...standIn().refunds.get(id)!, stripe_account: undefined, status: "failed" });

  it.each([["in_production"], ["shipped"]] as const)("returns to %s, not to paid", async (status) => {
    const { owner, order, stripeAccount } = await paidOrder({ shipping: "school" });
    await move(owner.token, order.id, "in_production");
    if (status === "shipped") {
      await printsRendered(owner.account.id, order.id);
      await move(owner.token, order.id, "shipped");
    }
    const whole = await refund(owner.token, order.id, {});
    expect(whole.status).toBe("refunded");
    expect((await deliver("refund.failed", failedCopy(whole.refunds[0].id), stripeAccount)).json.outcome).toBe("recorded");
    expect((await orderOf(owner.token, order.id)).json).toMatchObject({ status, refunded_amount: 0 });
  });

  it("when the earlier partial refund is the one that fails, the order returns to the status the later, completing one found", async () => {
    const { owner, order, stripeAccount } = await paidOrder({ shipping: "school" });
    await move(owner.token, order.id, "in_production");
    const part = await refund(owner.token, order.id, { item_id: order.items[0].id });
    expect(part.status).toBe("in_production");
    const rest = await refund(owner.token, order.id, {});
    expect([rest.status, rest.refunded_amount]).toEqual(["refunded", order.total]);
    const first = part.refunds[0].id as string;
    expect((await deliver("refund.failed", failedCopy(first), stripeAccount)).json.outcome).toBe("recorded");
    expect((await orderOf(owner.token, order.id)).json).toMatchObject({ status: "in_production", refunded_amount: order.total - part.refunded_amount });
  });
});

describe("a payment that completes after the order was canceled", () => {
  it("is refunded in full at once, through one Stripe refund however many copies come; the order stays canceled", async () => {
    const { owner, parent, stripeAccount } = await shop();
    const email = `late-${parent.subjectId}@example.com`;
    const res = await checkout(parent.token, { email, shipping_option_id: "school", lines: [{ photo_id: parent.photoIds[0], item_id: "p8x10", quantity: 1 }] });
    expect(res.status, res.text).toBe(201);
    const canceled = await call(cancelRoute, "POST", `/v1/orders/${res.json.order_id}/cancel`, { token: owner.token, params: { id: res.json.order_id }, body: {} });
    expect(canceled.json.status).toBe("canceled");

    // The parent was still on Stripe's page and pays: the stand-in sends checkout.session.completed to the app.
    const refundsBefore = standIn().calls.filter((c) => c.path === "/v1/refunds").length;
    const sessionId = new URL(res.json.checkout_url).pathname.split("/").pop()!;
    const session = await standIn().complete(sessionId);
    const copies = await Promise.all(Array.from({ length: 4 }, () => deliver("checkout.session.completed", { ...session, stripe_account: undefined }, stripeAccount)));
    expect(copies.map((c) => [c.status, c.json.outcome])).toEqual(Array(4).fill([200, "already_recorded"]));
    const refundCalls = standIn().calls.filter((c) => c.path === "/v1/refunds").slice(refundsBefore);
    expect(refundCalls.map((c) => [c.idempotencyKey, c.stripeAccount, c.params.payment_intent, c.params.amount])).toEqual([[`order-late-payment-${res.json.order_id}`, stripeAccount, session.payment_intent, undefined]]);
    expect([...standIn().refunds.values()].filter((r) => r.payment_intent === session.payment_intent).map((r) => r.amount)).toEqual([res.json.total]);

    const order = (await orderOf(owner.token, res.json.order_id)).json;
    expect(order).toMatchObject({ status: "canceled", refunded_amount: res.json.total });
    const db = await getDb();
    expect(await db.select().from(orderRefunds).where(eq(orderRefunds.orderId, res.json.order_id))).toHaveLength(1);
    const [row] = await db.select().from(orders).where(eq(orders.id, res.json.order_id));
    expect(row!.paidAt).toBeNull();
    await smtp().waitFor(email, /^Refund for your order/);
    expect(smtp().to(email, /^Receipt/)).toHaveLength(0);
  });
});

describe("a cart a promo made free", () => {
  it("is paid at once without Stripe: receipt, order.paid, the status page; no checkout session", async () => {
    const { owner, studio, parent } = await shop();
    const endpoint = await call(webhookEndpointsRoute, "POST", "/v1/webhook-endpoints", { token: owner.token, body: { url: "http://127.0.0.1:9/hook", events: ["order.paid"] } });
    expect(endpoint.status).toBe(201);
    await call(promosRoute, "POST", `/v1/price-sheets/${studio.sheetId}/promo-codes`, { token: owner.token, params: { id: studio.sheetId }, body: { code: "FREE", kind: "percent", value: 100 } });
    const sessions = standIn().calls.filter((c) => c.path === "/v1/checkout/sessions").length;
    const email = `free-${parent.subjectId}@example.com`;
    const res = await checkout(parent.token, { email, shipping_option_id: "school", promo_code: "free", lines: [{ photo_id: parent.photoIds[0], item_id: "p8x10", quantity: 1 }] });
    expect(res.status, res.text).toBe(201);
    expect(res.json).toMatchObject({ total: 0, checkout_url: expect.stringMatching(/\/o\/ord_[^/]+\?paid=1$/) });
    expect(standIn().calls.filter((c) => c.path === "/v1/checkout/sessions")).toHaveLength(sessions);
    const order = (await orderOf(owner.token, res.json.order_id)).json;
    expect(order).toMatchObject({ status: "paid", total: 0, discount: 1500, paid_at: expect.any(String) });
    const receipt = await smtp().waitFor(email, /^Receipt for your order/);
    expect(receipt.text).toContain("Total: $0.00");
    const db = await getDb();
    expect(await db.select().from(webhookDeliveries).where(and(eq(webhookDeliveries.accountId, owner.account.id), eq(webhookDeliveries.eventType, "order.paid")))).toHaveLength(1);
    // Nothing to refund: no payment was taken; canceling only closes it.
    const refund = await call(refundsRoute, "POST", `/v1/orders/${order.id}/refunds`, { token: owner.token, params: { id: order.id }, body: {} });
    expect(refund.status).toBe(409);
    const refunds = standIn().calls.filter((c) => c.path === "/v1/refunds").length;
    const canceled = await call(cancelRoute, "POST", `/v1/orders/${order.id}/cancel`, { token: owner.token, params: { id: order.id }, body: {} });
    expect([canceled.status, canceled.json.status]).toEqual([200, "canceled"]);
    expect(standIn().calls.filter((c) => c.path === "/v1/refunds")).toHaveLength(refunds);
  });

  it("is given by a studio that has not set up card payments; a cart that costs something there is refused, its promo use not kept", async () => {
    const owner = await testAccount();
    const studio = await sellingStudio(owner.token);
    const parent = await parentOf(owner.account.id, studio.agencyId, studio.jobId);
    await call(promosRoute, "POST", `/v1/price-sheets/${studio.sheetId}/promo-codes`, { token: owner.token, params: { id: studio.sheetId }, body: { code: "HALF", kind: "percent", value: 50, max_uses: 1 } });
    await call(promosRoute, "POST", `/v1/price-sheets/${studio.sheetId}/promo-codes`, { token: owner.token, params: { id: studio.sheetId }, body: { code: "GIFT", kind: "percent", value: 100 } });
    const line = { photo_id: parent.photoIds[0], item_id: "p8x10", quantity: 1 };
    const paying = await checkout(parent.token, { email: "p@example.com", shipping_option_id: "school", promo_code: "half", lines: [line] });
    expect([paying.status, paying.json.error]).toEqual([409, "STUDIO_CANNOT_TAKE_PAYMENTS"]);
    const db = await getDb();
    const half = (await db.select().from(promoCodes).where(and(eq(promoCodes.priceSheetId, studio.sheetId), eq(promoCodes.code, "HALF"))))[0]!;
    expect(half.uses).toBe(0);
    expect(await db.select().from(orders).where(eq(orders.accountId, owner.account.id))).toHaveLength(0);

    const free = await checkout(parent.token, { email: "p@example.com", shipping_option_id: "school", promo_code: "gift", lines: [line] });
    expect([free.status, free.json.total], free.text).toEqual([201, 0]);
    expect((await orderOf(owner.token, free.json.order_id)).json.status).toBe("paid");
    const [row] = await db.select().from(orders).where(eq(orders.id, free.json.order_id));
    expect(row!.stripeAccountId).toBeNull();
  });
});
