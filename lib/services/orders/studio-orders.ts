import { and, count, desc, eq, gte, lt, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { agencyJobs, orderItems, orderRefunds, orderShipments, orders, type OrderStatus } from "@/lib/foundation/db/schema";
import { ApiError, notFound } from "@/lib/foundation/http/api-error";
import { newId } from "@/lib/foundation/ids";
import { emitWebhookEvent } from "@/lib/domain/webhooks/emit";
import { queueMail, sendQueuedMail } from "@/lib/domain/mail/send-mail";
import { recordAudit } from "@/lib/domain/audit/record-audit";
import { stripe, viaStripe } from "@/lib/services/billing/stripe-client";
import { invalidField } from "./price-sheets";
import { loadOrder, orderSummary } from "./present-order";
import { orderStatusUrl } from "./order-link";
import { partShippedMail, shippedMail, type Parcel } from "./order-mail";
import { lineRefundAmount } from "./pricing";
import { recordRefund } from "./record-refund";
import { studioName } from "./studio-name";

export type OrderFilter = { job_id?: number; status?: OrderStatus; from?: string; to?: string };

function filterSql(accountId: string, f: OrderFilter): SQL {
  const where: SQL[] = [eq(orders.accountId, accountId)];
  if (f.job_id !== undefined) where.push(eq(orders.jobId, f.job_id));
  if (f.status) where.push(eq(orders.status, f.status));
  if (f.from) where.push(gte(orders.createdAt, new Date(`${f.from}T00:00:00Z`)));
  // `to` is inclusive: orders of that whole day (UTC).
  if (f.to) where.push(lt(orders.createdAt, new Date(new Date(`${f.to}T00:00:00Z`).getTime() + 86_400_000)));
  return and(...where)!;
}

export async function listOrders(db: Db, accountId: string, f: OrderFilter, window: { limit: number; offset: number }) {
  const where = filterSql(accountId, f);
  const rows = await db
    .select({ order: orders, itemCount: sql<number>`(select count(*)::int from "order_items" where "order_items"."order_id" = "orders"."id")` })
    .from(orders)
    .where(where)
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(window.limit)
    .offset(window.offset);
  const [total] = await db.select({ n: count() }).from(orders).where(where);
  return { items: rows.map((r) => ({ ...orderSummary(r.order), item_count: Number(r.itemCount) })), total: total?.n ?? 0 };
}

export const getOrder = (db: Db, accountId: string, orderId: string) => loadOrder(db, accountId, orderId);

/** Which status may follow which: production is optional (a digital-only order ships at once). */
const NEXT: Partial<Record<OrderStatus, OrderStatus[]>> = { paid: ["in_production", "shipped"], in_production: ["shipped"], shipped: ["delivered"] };

/**
 * One parcel of an order leaving (a lab batch's part of it, or all of it): kept with its
 * tracking, once per order and batch. The order itself ships when its last parcel does.
 */
async function recordParcel(db: Db, accountId: string, orderId: string, batchId: string | null, parcel: Parcel, at = new Date()): Promise<boolean> {
  const added = await db
    .insert(orderShipments)
    .values({ id: newId("shp"), accountId, orderId, batchId, carrier: parcel.carrier ?? null, trackingNumber: parcel.tracking_number ?? null, shippedAt: at })
    .onConflictDoNothing()
    .returning({ id: orderShipments.id });
  return added.length > 0;
}

/**
 * Part of an order left with lab batch `batchId` while other lines wait (`waitingItemIds`:
 * a held file being fixed): the parcel is kept and the parent told what shipped and what
 * follows, once per order and batch. The order stays in production.
 */
export async function shipPartOfOrder(db: Db, accountId: string, orderId: string, batchId: string, parcel: Parcel, waitingItemIds: ReadonlySet<string>): Promise<void> {
  const mail = await db.transaction(async (tx) => {
    if (!(await recordParcel(tx, accountId, orderId, batchId, parcel))) return null;
    const present = await loadOrder(tx, accountId, orderId);
    const studio = await studioName(tx, accountId);
    return queueMail(tx, partShippedMail(present, studio, orderStatusUrl(orderId), parcel, waitingItemIds), { key: `order-parcel-${orderId}-${batchId}`, accountId });
  });
  if (mail) await sendQueuedMail(db, mail);
}

/**
 * paid → in_production → shipped (with tracking, for home delivery) → delivered.
 * The change is conditional on the status read, so two concurrent changes cannot
 * both apply; shipping records its parcel (`batchId`: the lab batch it left with),
 * sends `order.shipped` with every parcel of the order and tells the parent.
 */
export async function updateOrderStatus(db: Db, accountId: string, orderId: string, input: { status: "in_production" | "shipped" | "delivered" } & Parcel, batchId: string | null = null) {
  const mail = await db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(and(eq(orders.id, orderId), eq(orders.accountId, accountId)));
    if (!order) throw notFound("Order");
    if (!NEXT[order.status]?.includes(input.status)) {
      throw new ApiError(409, "INVALID_ORDER_STATUS", `An order that is ${order.status} cannot become ${input.status}.`, { status: order.status, allowed: NEXT[order.status] ?? [] });
    }
    if (input.status === "shipped" && order.shipping.type === "home" && !input.tracking_number) throw invalidField("tracking_number", "Give the tracking number of a parcel sent home.");
    const now = new Date();
    const set = {
      status: input.status,
      ...(input.status === "shipped" ? { shippedAt: now, trackingNumber: input.tracking_number ?? null, carrier: input.carrier ?? null } : {}),
      ...(input.status === "delivered" ? { deliveredAt: now } : {}),
    };
    const [changed] = await tx.update(orders).set(set).where(and(eq(orders.id, orderId), eq(orders.status, order.status))).returning({ id: orders.id });
    if (!changed) throw new ApiError(409, "INVALID_ORDER_STATUS", "The order changed meanwhile; reload it.");
    await recordAudit(tx, { accountId, action: "order.status_changed", target: orderId, data: { from: order.status, to: input.status } });
    if (input.status !== "shipped") return null;
    await recordParcel(tx, accountId, orderId, batchId, input, now);
    const present = await loadOrder(tx, accountId, orderId);
    await emitWebhookEvent(tx, { accountId, type: "order.shipped", data: present });
    const studio = await studioName(tx, accountId);
    return queueMail(tx, shippedMail(present, studio, orderStatusUrl(orderId)), { key: `order-shipped-${orderId}`, accountId });
  });
  if (mail) await sendQueuedMail(db, mail);
  return loadOrder(db, accountId, orderId);
}

const REFUNDABLE: OrderStatus[] = ["paid", "in_production", "shipped", "delivered"];

/**
 * Refunds one item (its share of what was paid) or what is left of the whole order,
 * through Stripe on the studio's account, returning the platform's fee in proportion.
 * Stripe's idempotency key is the order's refund state, so a double click refunds
 * once; the refund is recorded once (by Stripe's id) however its webhook arrives.
 */
export async function refundOrder(db: Db, accountId: string, orderId: string, input: { item_id?: string; reason?: string }, opts: { cancel?: boolean } = {}) {
  const [order] = await db.select().from(orders).where(and(eq(orders.id, orderId), eq(orders.accountId, accountId)));
  if (!order) throw notFound("Order");
  const { paymentIntentId, stripeAccountId } = order;
  if (!REFUNDABLE.includes(order.status) || !paymentIntentId || !stripeAccountId) throw new ApiError(409, "ORDER_NOT_REFUNDABLE", `An order that is ${order.status} has no payment left to refund.`, { status: order.status });
  const left = order.total - order.refundedAmount;
  let amount = left;
  let itemId: string | null = null;
  if (input.item_id) {
    const [item] = await db.select().from(orderItems).where(and(eq(orderItems.id, input.item_id), eq(orderItems.orderId, orderId)));
    if (!item) throw invalidField("item_id", `No item ${input.item_id} in this order.`);
    amount = Math.min(left, lineRefundAmount(order, item.lineTotal) - item.refundedAmount);
    itemId = item.id;
  }
  if (amount <= 0) throw new ApiError(409, "ALREADY_REFUNDED", itemId ? "This item was already refunded." : "This order was already refunded in full.");
  // Every refund recorded (failed ones too) changes the key: a refund that failed and was reversed can be made again.
  const [{ n: recorded } = { n: 0 }] = await db.select({ n: count() }).from(orderRefunds).where(eq(orderRefunds.orderId, orderId));
  const refund = await viaStripe("refund the payment", () =>
    stripe().refunds.create(
      { payment_intent: paymentIntentId, amount, refund_application_fee: true, metadata: { order_id: orderId, ...(itemId ? { order_item_id: itemId } : {}), ...(input.reason ? { reason: input.reason } : {}) } },
      { stripeAccount: stripeAccountId, idempotencyKey: `order-refund-${orderId}-${itemId ?? "all"}-${order.refundedAmount}-${recorded}` },
    ),
  );
  await recordRefund(db, { orderId, stripeRefundId: refund.id, amount: refund.amount, itemId, reason: input.reason ?? null });
  if (opts.cancel) await db.update(orders).set({ status: "canceled", canceledAt: new Date() }).where(eq(orders.id, orderId));
  return loadOrder(db, accountId, orderId);
}

/** Cancel: an unpaid order is just closed; a paid one not yet shipped is refunded in full and closed. */
export async function cancelOrder(db: Db, accountId: string, orderId: string, reason?: string) {
  const [order] = await db.select().from(orders).where(and(eq(orders.id, orderId), eq(orders.accountId, accountId)));
  if (!order) throw notFound("Order");
  // Unpaid, or free (a promo made it 0, nothing was charged) and not yet shipped: canceling only closes it.
  const nothingCharged = order.total === 0 && (order.status === "paid" || order.status === "in_production");
  if (order.status === "pending" || nothingCharged) {
    await db.update(orders).set({ status: "canceled", canceledAt: new Date() }).where(and(eq(orders.id, orderId), eq(orders.status, order.status)));
    await recordAudit(db, { accountId, action: "order.canceled", target: orderId });
    return loadOrder(db, accountId, orderId);
  }
  if (order.status !== "paid" && order.status !== "in_production") {
    throw new ApiError(409, "ORDER_NOT_CANCELABLE", `An order that is ${order.status} cannot be canceled; refund its items instead.`, { status: order.status });
  }
  const done = await refundOrder(db, accountId, orderId, { reason: reason ?? "canceled" }, { cancel: true });
  await recordAudit(db, { accountId, action: "order.canceled", target: orderId });
  return done;
}

/**
 * Sales per job, per currency, of orders that were paid: gross (what parents paid),
 * refunds, the platform's fees (less the part returned with refunds), the lab cost
 * of what was made, and net (what the studio keeps).
 */
export async function salesByJob(db: Db, accountId: string, f: { job_id?: number }) {
  const where = and(eq(orders.accountId, accountId), sql`${orders.paidAt} is not null`, f.job_id !== undefined ? eq(orders.jobId, f.job_id) : undefined);
  const rows = await db
    .select({
      jobId: orders.jobId,
      jobName: agencyJobs.name,
      currency: orders.currency,
      orders: sql<number>`count(*)::int`,
      gross: sql<number>`coalesce(sum(${orders.total}), 0)::int`,
      refunds: sql<number>`coalesce(sum(${orders.refundedAmount}), 0)::int`,
      fees: sql<number>`coalesce(sum(${orders.fee} - round(${orders.fee}::numeric * ${orders.refundedAmount} / nullif(${orders.total}, 0))), 0)::int`,
      labCost: sql<number>`coalesce(sum(${orders.labCost}), 0)::int`,
    })
    .from(orders)
    .leftJoin(agencyJobs, eq(agencyJobs.id, orders.jobId))
    .where(where)
    .groupBy(orders.jobId, agencyJobs.name, orders.currency)
    .orderBy(orders.jobId, orders.currency);
  return {
    data: rows.map((r) => {
      const [gross, refunds, fees, lab] = [Number(r.gross), Number(r.refunds), Number(r.fees), Number(r.labCost)];
      return { job_id: r.jobId, job_name: r.jobName, currency: r.currency, orders: Number(r.orders), gross, refunds, fees, lab_cost: lab, net: gross - refunds - fees - lab };
    }),
  };
}
