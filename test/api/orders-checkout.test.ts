import { describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import * as connectRoute from "@/app/v1/payments/connect/route";
import * as parentSheetRoute from "@/app/v1/parent/price-sheet/route";
import * as sheetRoute from "@/app/v1/price-sheets/[id]/route";
import * as promosRoute from "@/app/v1/price-sheets/[id]/promo-codes/route";
import * as ordersRoute from "@/app/v1/orders/route";
import * as orderRoute from "@/app/v1/orders/[id]/route";
import * as refundsRoute from "@/app/v1/orders/[id]/refunds/route";
import * as cancelRoute from "@/app/v1/orders/[id]/cancel/route";
import * as salesRoute from "@/app/v1/orders/sales/route";
import * as salesCsvRoute from "@/app/v1/orders/sales.csv/route";
import * as webhookEndpointsRoute from "@/app/v1/webhook-endpoints/route";
import { resetConfig } from "@/lib/foundation/config";
import { getDb } from "@/lib/foundation/db/client";
import { orderDisputes, orderRefunds, orders, promoCodes, webhookDeliveries } from "@/lib/foundation/db/schema";
import { orderIdFromToken } from "@/lib/services/orders/order-link";
import { printsRendered } from "../support/prints-rendered";
import { call, testAccount } from "../http";
import { parentOf, sellingStudio } from "../support/orders-fixtures";
import { ADDRESS, ordersHarness } from "../support/orders-harness";

// The real `stripe` SDK against the local stand-in over HTTP both ways, real SMTP (test/support/orders-harness.ts).
const { standIn, smtp, hookUrl, deliver, shop, checkout, orderOf, paidOrder } = ordersHarness();

describe("Stripe Connect", () => {
  it("creates the studio's account once, answers an onboarding link, and follows account.updated", async () => {
    standIn().setWebhookUrl(hookUrl());
    const { token, account } = await testAccount();
    const before = await call(connectRoute, "GET", "/v1/payments/connect", { token });
    expect(before.json).toEqual({ connected: false, stripe_account_id: null, charges_enabled: false, details_submitted: false, payouts_enabled: false });
    const first = await call(connectRoute, "POST", "/v1/payments/connect", { token, body: { type: "express", country: "US" } });
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ connected: true, stripe_account_id: expect.stringMatching(/^acct_/), charges_enabled: false, onboarding_url: expect.stringContaining(`${standIn().url}/onboard/`) });
    expect(standIn().calls.findLast((c) => c.path === "/v1/accounts")!.params).toMatchObject({ type: "express", country: "US", metadata: { account_id: account.id } });
    const again = await call(connectRoute, "POST", "/v1/payments/connect", { token, body: {} });
    expect(again.json.stripe_account_id).toBe(first.json.stripe_account_id);
    expect(standIn().calls.filter((c) => c.path === "/v1/accounts" && c.params.metadata && (c.params.metadata as Record<string, string>).account_id === account.id)).toHaveLength(1);

    // Back from onboarding before the webhook: the page asks Stripe itself.
    Object.assign(standIn().accounts.get(first.json.stripe_account_id)!, { details_submitted: true });
    expect((await call(connectRoute, "GET", "/v1/payments/connect", { token })).json).toMatchObject({ details_submitted: true, charges_enabled: false });
    // The onboarding page's button: Stripe enables the account and sends account.updated, signed.
    const finish = await fetch(first.json.onboarding_url, { method: "POST", redirect: "manual" });
    expect(finish.status).toBe(303);
    const after = await call(connectRoute, "GET", "/v1/payments/connect", { token });
    expect(after.json).toEqual({ connected: true, stripe_account_id: first.json.stripe_account_id, charges_enabled: true, details_submitted: true, payouts_enabled: true });
  });
});

describe("a parent's checkout", () => {
  it("prices on the server from the sheet, opens a session on the studio's account with the platform fee, and pays once from the webhook", async () => {
    process.env.PLATFORM_FEE_PERCENT = "10";
    resetConfig();
    const { owner, studio, parent, stripeAccount } = await shop();
    // A webhook endpoint of the studio that wants order.paid.
    const endpoint = await call(webhookEndpointsRoute, "POST", "/v1/webhook-endpoints", { token: owner.token, body: { url: "http://127.0.0.1:9/hook", events: ["order.paid", "order.shipped", "order.refunded"] } });
    expect(endpoint.status).toBe(201);

    const body = {
      email: "parent@example.com",
      lines: [
        { photo_id: parent.photoIds[0], item_id: "p8x10", quantity: 2, crop: { x: 0.1, y: 0, width: 0.6, height: 0.8 } },
        { photo_id: parent.photoIds[1], package_id: "pkgA", quantity: 1, yearbook_pose: true },
      ],
      shipping_option_id: "home",
      address: ADDRESS,
    };
    const res = await checkout(parent.token, body);
    expect(res.status, res.text).toBe(201);
    // 2 × 1500 + 3000 = 6000; tax 8.25 % = 495; shipping 799; total 7294; fee 10 % = 729.
    expect(res.json).toEqual({ order_id: expect.stringMatching(/^ord_/), checkout_url: expect.stringContaining(`${standIn().url}/pay/`), total: 7294, currency: "usd" });
    const sessionCall = standIn().calls.findLast((c) => c.path === "/v1/checkout/sessions")!;
    expect(sessionCall.stripeAccount).toBe(stripeAccount);
    expect(sessionCall.params).toMatchObject({ mode: "payment", customer_email: "parent@example.com", client_reference_id: res.json.order_id, payment_intent_data: { application_fee_amount: "729" } });
    const pending = await orderOf(owner.token, res.json.order_id);
    expect(pending.json).toMatchObject({ status: "pending", subtotal: 6000, tax: 495, shipping_amount: 799, total: 7294, fee: 729, lab_cost: 2 * 300 + 2 * 300, job_id: Number(studio.jobId), subject_id: parent.subjectId });
    expect(pending.json.items.map((i: Record<string, unknown>) => [i.kind, i.ref_id, i.quantity, i.unit_price, i.yearbook_pose])).toEqual([
      ["item", "p8x10", 2, 1500, false],
      ["package", "pkgA", 1, 3000, true],
    ]);
    expect(pending.json.items[0].crop).toEqual({ x: 0.1, y: 0, width: 0.6, height: 0.8 });

    // The parent pays on the stand-in's page: Stripe sends checkout.session.completed to the app.
    const pay = await fetch(res.json.checkout_url, { method: "POST", redirect: "manual" });
    expect(pay.status).toBe(303);
    expect(pay.headers.get("location")).toContain("/o/");
    const paid = await orderOf(owner.token, res.json.order_id);
    expect(paid.json).toMatchObject({ status: "paid", paid_at: expect.any(String) });

    // The same event, ten copies at once: still one paid order, one receipt, one order.paid.
    const session = [...standIn().sessions.values()].find((s) => s.client_reference_id === res.json.order_id)!;
    const copies = await Promise.all(Array.from({ length: 10 }, () => deliver("checkout.session.completed", { ...session, stripe_account: undefined }, stripeAccount)));
    expect(copies.map((c) => c.status)).toEqual(Array(10).fill(200));
    expect(copies.map((c) => c.json.outcome)).toEqual(Array(10).fill("already_paid"));
    const receipt = await smtp().waitFor("parent@example.com", /Receipt for your order/);
    expect(receipt.text).toContain("$72.94");
    const link = receipt.links.find((l) => l.includes("/o/") && !l.includes("/downloads/"))!;
    expect(orderIdFromToken(decodeURIComponent(new URL(link).pathname.split("/o/")[1]!))).toBe(res.json.order_id);
    expect(orderIdFromToken(`${res.json.order_id}.forged`)).toBeNull();
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp().to("parent@example.com", /Receipt/)).toHaveLength(1);
    const db = await getDb();
    const events = await db.select().from(webhookDeliveries).where(and(eq(webhookDeliveries.accountId, owner.account.id), eq(webhookDeliveries.eventType, "order.paid")));
    expect(events).toHaveLength(1);
    delete process.env.PLATFORM_FEE_PERCENT;
    resetConfig();
  });

  it("ignores a price from the client: unknown fields are refused, and the order keeps the sheet's price of its time", async () => {
    const { owner, studio, parent } = await shop();
    const line = { photo_id: parent.photoIds[0], item_id: "p8x10", quantity: 1 };
    const base = { email: "p@example.com", shipping_option_id: "school" };
    const priced = await checkout(parent.token, { ...base, lines: [{ ...line, unit_price: 1 }] });
    expect([priced.status, priced.json.details.fields.map((f: { field: string }) => f.field)]).toEqual([400, ["lines.0.unit_price"]]);
    const total = await checkout(parent.token, { ...base, lines: [line], total: 1 });
    expect(total.json.details.fields.map((f: { field: string }) => f.field)).toEqual(["total"]);
    const ok = await checkout(parent.token, { ...base, lines: [line] });
    expect(ok.json.total).toBe(1500 + 124);
    // The studio raises the price: a new checkout pays the new one, the first order keeps its own.
    const sheet = (await call(sheetRoute, "GET", `/v1/price-sheets/${studio.sheetId}`, { token: owner.token, params: { id: studio.sheetId } })).json;
    const items = sheet.items.map((i: Record<string, unknown>) => ({ id: i.id, kind: i.kind, product_id: i.product_id, name: i.name, lab_cost: i.lab_cost, price: i.id === "p8x10" ? 2500 : i.price }));
    await call(sheetRoute, "PATCH", `/v1/price-sheets/${studio.sheetId}`, { token: owner.token, params: { id: studio.sheetId }, body: { items } });
    const later = await checkout(parent.token, { ...base, lines: [line] });
    expect(later.json.total).toBe(2500 + 206);
    expect((await orderOf(owner.token, ok.json.order_id)).json.items[0].unit_price).toBe(1500);
    // A session paid for another amount than the order's is not taken as payment.
    const s = [...standIn().sessions.values()].find((x) => x.client_reference_id === later.json.order_id)!;
    const wrong = await deliver("checkout.session.completed", { ...s, stripe_account: undefined, status: "complete", payment_status: "paid", payment_intent: "pi_x", amount_total: 100 }, String(s.stripe_account));
    expect(wrong.json.outcome).toBe("ignored");
    expect((await orderOf(owner.token, later.json.order_id)).json.status).toBe("pending");
  });

  it("refuses what the parent may not buy, naming the field", async () => {
    const { owner, studio, parent } = await shop({ downloads: false });
    const other = await parentOf(owner.account.id, studio.agencyId, studio.jobId);
    const base = { email: "p@example.com", shipping_option_id: "school" };
    const cases: [unknown, string][] = [
      [{ ...base, lines: [{ photo_id: other.photoIds[0], item_id: "p8x10", quantity: 1 }] }, "lines.0.photo_id"],
      [{ ...base, lines: [{ photo_id: parent.photoIds[0], item_id: "nope", quantity: 1 }] }, "lines.0.item_id"],
      [{ ...base, lines: [{ photo_id: parent.photoIds[0], item_id: "digital", quantity: 1 }] }, "lines.0.item_id"],
      [{ ...base, lines: [{ photo_id: parent.photoIds[0], item_id: "p8x10", quantity: 0 }] }, "lines.0.quantity"],
      [{ ...base, lines: [{ photo_id: parent.photoIds[0], item_id: "p8x10", package_id: "pkgA", quantity: 1 }] }, "lines.0.item_id"],
      [{ ...base, shipping_option_id: "home", lines: [{ photo_id: parent.photoIds[0], item_id: "p8x10", quantity: 1 }] }, "address"],
      [{ ...base, shipping_option_id: "moon", lines: [{ photo_id: parent.photoIds[0], item_id: "p8x10", quantity: 1 }] }, "shipping_option_id"],
      [{ ...base, promo_code: "NOPE", lines: [{ photo_id: parent.photoIds[0], item_id: "p8x10", quantity: 1 }] }, "promo_code"],
      [{ ...base, email: "not-an-address", lines: [{ photo_id: parent.photoIds[0], item_id: "p8x10", quantity: 1 }] }, "email"],
      [{ ...base, lines: [] }, "lines"],
    ];
    for (const [body, field] of cases) {
      const res = await checkout(parent.token, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.details.fields.map((f: { field: string }) => f.field), JSON.stringify(body)).toContain(field);
    }
    expect((await checkout("not-a-token", { ...base, lines: [] })).status).toBe(401);
  });

  it("takes a promo code within its limit, and refuses a studio that cannot take payments yet", async () => {
    const { owner, studio, parent } = await shop();
    await call(promosRoute, "POST", `/v1/price-sheets/${studio.sheetId}/promo-codes`, { token: owner.token, params: { id: studio.sheetId }, body: { code: "ONCE", kind: "percent", value: 20, max_uses: 1 } });
    const body = { email: "p@example.com", shipping_option_id: "school", promo_code: "once", lines: [{ photo_id: parent.photoIds[0], item_id: "p8x10", quantity: 2 }] };
    const first = await checkout(parent.token, body);
    // 3000 - 20 % = 2400; tax 198; one Stripe line for the discounted order.
    expect(first.json.total).toBe(2598);
    expect(standIn().calls.findLast((c) => c.path === "/v1/checkout/sessions")!.params.line_items).toEqual([{ quantity: "1", price_data: { currency: "usd", unit_amount: "2598", product_data: { name: `Order ${first.json.order_id}` } } }]);
    const second = await checkout(parent.token, body);
    expect([second.status, second.json.details.fields[0].field]).toEqual([400, "promo_code"]);
    const db = await getDb();
    expect((await db.select().from(promoCodes).where(eq(promoCodes.priceSheetId, studio.sheetId)))[0]!.uses).toBe(1);

    const fresh = await testAccount();
    const s2 = await sellingStudio(fresh.token);
    const p2 = await parentOf(fresh.account.id, s2.agencyId, s2.jobId);
    const refused = await checkout(p2.token, { ...body, promo_code: undefined, lines: [{ photo_id: p2.photoIds[0], item_id: "p8x10", quantity: 1 }] });
    expect([refused.status, refused.json.error]).toEqual([409, "STUDIO_CANNOT_TAKE_PAYMENTS"]);
  });
});

describe("the studio's orders", () => {
  it("lists with filters, moves paid → in production → shipped (tracking) → delivered, and tells the parent", async () => {
    const { owner, order, studio } = await paidOrder();
    const list = await call(ordersRoute, "GET", `/v1/orders?job_id=${studio.jobId}&status=paid`, { token: owner.token });
    expect(list.json.data.map((o: { id: string }) => o.id)).toEqual([order.id]);
    expect(list.json.data[0].item_count).toBe(2);
    expect((await call(ordersRoute, "GET", "/v1/orders?status=shipped", { token: owner.token })).json.data).toEqual([]);
    expect((await call(ordersRoute, "GET", "/v1/orders?from=2000-01-01&to=2000-01-02", { token: owner.token })).json.data).toEqual([]);
    expect((await call(ordersRoute, "GET", "/v1/orders?status=lost", { token: owner.token })).json.details.fields[0].field).toBe("status");

    const patch = (body: unknown) => call(orderRoute, "PATCH", `/v1/orders/${order.id}`, { token: owner.token, params: { id: order.id }, body });
    expect((await patch({ status: "delivered" })).json.error).toBe("INVALID_ORDER_STATUS");
    expect((await patch({ status: "in_production" })).json.status).toBe("in_production");
    // Its 8x10 has not been through production: shipping by hand waits for it.
    const unprinted = await patch({ status: "shipped", tracking_number: "1Z999" });
    expect([unprinted.status, unprinted.json.error, unprinted.json.details.files.length]).toEqual([409, "PRINT_FILES_WAITING", 1]);
    await printsRendered(owner.account.id, order.id);
    const noTracking = await patch({ status: "shipped" });
    expect([noTracking.status, noTracking.json.details.fields[0].field]).toEqual([400, "tracking_number"]);
    const shipped = await patch({ status: "shipped", tracking_number: "1Z999", carrier: "UPS" });
    expect(shipped.json).toMatchObject({ status: "shipped", tracking_number: "1Z999", carrier: "UPS", shipped_at: expect.any(String) });
    const mail = await smtp().waitFor(order.email, /has shipped/);
    expect(mail.text).toContain("UPS 1Z999");
    expect((await patch({ status: "delivered" })).json.status).toBe("delivered");
  });

  it("refunds one item through Stripe and records it once, however many times its webhook comes; then the rest", async () => {
    const { owner, order, stripeAccount } = await paidOrder();
    const item = order.items[0];
    const res = await call(refundsRoute, "POST", `/v1/orders/${order.id}/refunds`, { token: owner.token, params: { id: order.id }, body: { item_id: item.id, reason: "smudged" } });
    expect(res.status, res.text).toBe(200);
    // The 8x10's share: 1500 of 3500 goods, with its tax: 1500 × (3500 + 289) / 3500 = 1624.
    const refundCall = standIn().calls.findLast((c) => c.path === "/v1/refunds")!;
    expect(refundCall.stripeAccount).toBe(stripeAccount);
    expect(refundCall.params).toMatchObject({ amount: "1624", refund_application_fee: "true", metadata: { order_id: order.id, order_item_id: item.id } });
    expect(res.json.refunded_amount).toBe(1624);
    expect(res.json.items[0].refunded_amount).toBe(1624);
    expect(res.json.lab_cost).toBe(0);

    const refund = standIn().refunds.get(res.json.refunds[0].id)!;
    const copies = await Promise.all(Array.from({ length: 5 }, () => deliver("refund.created", { ...refund, stripe_account: undefined }, stripeAccount)));
    expect(copies.map((c) => c.json.outcome)).toEqual(Array(5).fill("already_recorded"));
    const again = await call(refundsRoute, "POST", `/v1/orders/${order.id}/refunds`, { token: owner.token, params: { id: order.id }, body: { item_id: item.id } });
    expect([again.status, again.json.error]).toEqual([409, "ALREADY_REFUNDED"]);
    const db = await getDb();
    expect(await db.select().from(orderRefunds).where(eq(orderRefunds.orderId, order.id))).toHaveLength(1);
    await smtp().waitFor(order.email, /Refund for your order/);

    // A refund made in the studio's Stripe dashboard arrives by webhook only: recorded once too.
    const pi = (await db.select().from(orders).where(eq(orders.id, order.id)))[0]!.paymentIntentId!;
    const dashboard = { id: "re_dashboard_1", object: "refund", amount: 500, currency: "usd", payment_intent: pi, status: "succeeded", metadata: {} };
    const d = await Promise.all(Array.from({ length: 3 }, () => deliver("refund.created", dashboard, stripeAccount)));
    expect(d.map((x) => x.json.outcome).sort()).toEqual(["already_recorded", "already_recorded", "recorded"]);
    const rest = await call(refundsRoute, "POST", `/v1/orders/${order.id}/refunds`, { token: owner.token, params: { id: order.id }, body: {} });
    expect(rest.json).toMatchObject({ status: "refunded", refunded_amount: order.total });
    expect(standIn().calls.findLast((c) => c.path === "/v1/refunds")!.params.amount).toBe(String(order.total - 1624 - 500));
  });

  it("records a dispute once, and cancels a paid order with a full refund", async () => {
    const { owner, order, stripeAccount } = await paidOrder({ shipping: "school" });
    const db = await getDb();
    const pi = (await db.select().from(orders).where(eq(orders.id, order.id)))[0]!.paymentIntentId!;
    const dispute = { id: "dp_test_1", object: "dispute", amount: order.total, currency: "usd", payment_intent: pi, reason: "fraudulent", status: "needs_response" };
    const copies = await Promise.all(Array.from({ length: 4 }, () => deliver("charge.dispute.created", dispute, stripeAccount)));
    expect(copies.map((c) => c.json.outcome).sort()).toEqual(["already_recorded", "already_recorded", "already_recorded", "recorded"]);
    expect(await db.select().from(orderDisputes).where(eq(orderDisputes.orderId, order.id))).toHaveLength(1);
    expect((await orderOf(owner.token, order.id)).json.disputed).toBe(true);

    const canceled = await call(cancelRoute, "POST", `/v1/orders/${order.id}/cancel`, { token: owner.token, params: { id: order.id }, body: {} });
    expect(canceled.json).toMatchObject({ status: "canceled", refunded_amount: order.total, canceled_at: expect.any(String) });
    const twice = await call(cancelRoute, "POST", `/v1/orders/${order.id}/cancel`, { token: owner.token, params: { id: order.id }, body: {} });
    expect([twice.status, twice.json.error]).toEqual([409, "ORDER_NOT_CANCELABLE"]);
  });

  it("reports sales per job as JSON and CSV", async () => {
    const { owner, order, studio } = await paidOrder();
    await call(refundsRoute, "POST", `/v1/orders/${order.id}/refunds`, { token: owner.token, params: { id: order.id }, body: { item_id: order.items[1].id } });
    const sales = await call(salesRoute, "GET", "/v1/orders/sales", { token: owner.token });
    const refunded = Math.round((2000 * (3500 + 289)) / 3500);
    expect(sales.json.data).toEqual([{ job_id: Number(studio.jobId), job_name: "Fall 2026", currency: "usd", orders: 1, gross: order.total, refunds: refunded, fees: 0, lab_cost: 300, net: order.total - refunded - 300 }]);
    const csv = await call(salesCsvRoute, "GET", "/v1/orders/sales.csv", { token: owner.token });
    expect(csv.headers.get("content-type")).toContain("text/csv");
    expect(csv.text.split(/\r?\n/)).toEqual(["job_id,job_name,currency,orders,gross,refunds,fees,lab_cost,net", `${studio.jobId},Fall 2026,usd,1,${order.total},${refunded},0,300,${order.total - refunded - 300}`]);
  });

  it("another studio's orders are 404 on every route", async () => {
    const { order } = await paidOrder();
    const other = await testAccount();
    const p = { params: { id: order.id }, token: other.token };
    expect((await call(orderRoute, "GET", `/v1/orders/${order.id}`, p)).status).toBe(404);
    expect((await call(orderRoute, "PATCH", `/v1/orders/${order.id}`, { ...p, body: { status: "in_production" } })).status).toBe(404);
    expect((await call(orderRoute, "PATCH", `/v1/orders/${order.id}`, { ...p, body: { status: "shipped", tracking_number: "1Z1" } })).status).toBe(404);
    expect((await call(refundsRoute, "POST", `/v1/orders/${order.id}/refunds`, { ...p, body: {} })).status).toBe(404);
    expect((await call(cancelRoute, "POST", `/v1/orders/${order.id}/cancel`, { ...p, body: {} })).status).toBe(404);
    expect((await call(ordersRoute, "GET", "/v1/orders", { token: other.token })).json.data).toEqual([]);
    expect((await call(salesRoute, "GET", "/v1/orders/sales", { token: other.token })).json.data).toEqual([]);
  });
});

describe("the parent's storefront", () => {
  it("reads what the gallery sells, without lab costs, and without digital files when downloads are off", async () => {
    const { parent, owner, studio } = await shop({ downloads: true });
    const res = await call(parentSheetRoute, "GET", "/v1/parent/price-sheet", { token: parent.token });
    expect(res.status).toBe(200);
    expect(res.json.items.map((i: { id: string }) => i.id)).toEqual(["p8x10", "digital"]);
    expect(res.json.items[0]).toEqual({ id: "p8x10", kind: "print", name: "8x10 print", price: 1500, allow_backgrounds: false, product: expect.objectContaining({ width_in: 8, height_in: 10 }) });
    expect(res.text).not.toContain("lab_cost");
    expect(res.json.shipping.map((s: { id: string }) => s.id)).toEqual(["home", "school"]);
    const other = await parentOf(owner.account.id, studio.agencyId, studio.jobId, { downloads: false });
    const off = await call(parentSheetRoute, "GET", "/v1/parent/price-sheet", { token: other.token });
    expect(off.json.items.map((i: { id: string }) => i.id)).toEqual(["p8x10"]);
    expect(off.json.packages).toEqual([]);
    expect((await call(parentSheetRoute, "GET", "/v1/parent/price-sheet", { token: owner.token })).status).toBe(401);
  });
});
