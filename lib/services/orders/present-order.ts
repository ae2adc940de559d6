import { and, asc, eq } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { orderItems, orderRefunds, orderShipments, orders } from "@/lib/foundation/db/schema";
import { notFound } from "@/lib/foundation/http/api-error";

export type OrderRow = typeof orders.$inferSelect;
type ItemRow = typeof orderItems.$inferSelect;
type RefundRow = typeof orderRefunds.$inferSelect;
type ShipmentRow = typeof orderShipments.$inferSelect;

const iso = (d: Date | null) => d?.toISOString() ?? null;

export function orderSummary(row: OrderRow) {
  return {
    id: row.id,
    job_id: row.jobId,
    subject_id: row.subjectId,
    email: row.email,
    status: row.status,
    currency: row.currency,
    subtotal: row.subtotal,
    discount: row.discount,
    tax: row.tax,
    shipping_amount: row.shippingAmount,
    total: row.total,
    fee: row.fee,
    lab_cost: row.labCost,
    refunded_amount: row.refundedAmount,
    promo_code: row.promoCode,
    shipping: row.shipping,
    tracking_number: row.trackingNumber,
    carrier: row.carrier,
    disputed: row.disputed,
    created_at: row.createdAt.toISOString(),
    paid_at: iso(row.paidAt),
    shipped_at: iso(row.shippedAt),
    delivered_at: iso(row.deliveredAt),
    canceled_at: iso(row.canceledAt),
    photos_removed_at: iso(row.photosRemovedAt),
  };
}

export function presentOrder(row: OrderRow, items: ItemRow[], refunds: RefundRow[], shipments: ShipmentRow[] = []) {
  return {
    ...orderSummary(row),
    items: items.map((i) => ({
      id: i.id,
      photo_id: i.photoId,
      kind: i.kind,
      ref_id: i.refId,
      name: i.name,
      quantity: i.quantity,
      unit_price: i.unitPrice,
      line_total: i.lineTotal,
      lab_cost: i.unitLabCost * i.quantity,
      crop: i.crop,
      background_id: i.backgroundId,
      yearbook_pose: i.yearbookPose,
      digital: i.digital,
      refunded_amount: i.refundedAmount,
    })),
    refunds: refunds.map((r) => ({ id: r.stripeRefundId, item_id: r.orderItemId, amount: r.amount, reason: r.reason, created_at: r.createdAt.toISOString(), failed_at: r.failedAt?.toISOString() ?? null })),
    shipments: shipments.map((s) => ({ batch_id: s.batchId, carrier: s.carrier, tracking_number: s.trackingNumber, shipped_at: s.shippedAt.toISOString() })),
  };
}
export type PublicOrder = ReturnType<typeof presentOrder>;

/** The order with its items, refunds and parcels; `accountId` null only for the parent's signed link, which names the order itself. */
export async function loadOrder(db: Db, accountId: string | null, orderId: string): Promise<PublicOrder> {
  const [row] = await db.select().from(orders).where(accountId ? and(eq(orders.id, orderId), eq(orders.accountId, accountId)) : eq(orders.id, orderId));
  if (!row) throw notFound("Order");
  const items = await db.select().from(orderItems).where(eq(orderItems.orderId, orderId)).orderBy(asc(orderItems.position));
  const refunds = await db.select().from(orderRefunds).where(eq(orderRefunds.orderId, orderId)).orderBy(asc(orderRefunds.createdAt));
  const shipments = await db.select().from(orderShipments).where(eq(orderShipments.orderId, orderId)).orderBy(asc(orderShipments.shippedAt), asc(orderShipments.id));
  return presentOrder(row, items, refunds, shipments);
}
