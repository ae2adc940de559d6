import { and, desc, eq, isNotNull, isNull, sql } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { orderItems, orderRefunds, orders, type OrderStatus } from "@/lib/foundation/db/schema";
import { emitWebhookEvent } from "@/lib/domain/webhooks/emit";
import { recordAudit } from "@/lib/domain/audit/record-audit";
import { loadOrder } from "./present-order";

/**
 * Stripe reported a refund we recorded as failed or canceled (the card could not
 * take it back): the money stayed with the studio, so the refund's amount returns
 * to the order, its item and its lab cost, and a whole refund no longer ends the
 * order: it returns to the status it had before (in production, shipped…). Once per refund (the row's `failed_at`), however many copies arrive; a
 * refund never recorded is nothing to undo.
 */
export async function reverseFailedRefund(db: Db, stripeAccount: string, stripeRefundId: string): Promise<"recorded" | "already_recorded" | "ignored"> {
  return db.transaction(async (tx) => {
    // Only the account the payment was made on may undo its refund: another's is nothing of ours.
    const [found] = await tx
      .select({ refund: orderRefunds, order: orders })
      .from(orderRefunds)
      .innerJoin(orders, eq(orders.id, orderRefunds.orderId))
      .where(and(eq(orderRefunds.stripeRefundId, stripeRefundId), eq(orders.stripeAccountId, stripeAccount)))
      .for("update");
    if (!found) return "ignored";
    const [refund] = await tx
      .update(orderRefunds)
      .set({ failedAt: new Date() })
      .where(and(eq(orderRefunds.stripeRefundId, stripeRefundId), isNull(orderRefunds.failedAt)))
      .returning();
    if (!refund) return "already_recorded";
    const order = found.order;
    if (refund.orderItemId) {
      await tx
        .update(orderItems)
        .set({ refundedAmount: sql`greatest(${orderItems.refundedAmount} - ${refund.amount}, 0)` })
        .where(and(eq(orderItems.id, refund.orderItemId), eq(orderItems.orderId, order.id)));
    }
    const refunded = Math.max(0, order.refundedAmount - refund.amount);
    const items = await tx.select().from(orderItems).where(eq(orderItems.orderId, order.id));
    // Lab cost is dropped for what was refunded before it was made; undone, the unrefunded items count again.
    const labCost = order.shippedAt ? order.labCost : items.filter((i) => i.refundedAmount === 0).reduce((n, i) => n + i.unitLabCost * i.quantity, 0);
    const status: OrderStatus = order.status !== "refunded" ? order.status : await statusBeforeRefund(tx, order);
    await tx.update(orders).set({ refundedAmount: refunded, labCost, status }).where(eq(orders.id, order.id));
    await recordAudit(tx, { accountId: order.accountId, action: "order.refund_failed", target: order.id, data: { amount: refund.amount, item_id: refund.orderItemId, refund: stripeRefundId } });
    const present = await loadOrder(tx, order.accountId, order.id);
    await emitWebhookEvent(tx, { accountId: order.accountId, type: "order.refund_failed", data: { ...present, refund: { id: stripeRefundId, amount: refund.amount, item_id: refund.orderItemId } } });
    return "recorded";
  });
}

/**
 * The status the order had when a refund made it whole (kept on that refund's
 * row; when an earlier partial refund is the one that fails, the later one that
 * completed the order holds it). Orders refunded before it was kept: read from
 * their dates, as before (an in-production order then comes back as paid).
 */
async function statusBeforeRefund(tx: Db, order: typeof orders.$inferSelect): Promise<OrderStatus> {
  const [ending] = await tx
    .select({ status: orderRefunds.statusBefore })
    .from(orderRefunds)
    .where(and(eq(orderRefunds.orderId, order.id), isNotNull(orderRefunds.statusBefore)))
    .orderBy(desc(orderRefunds.createdAt))
    .limit(1);
  if (ending?.status) return ending.status;
  return order.deliveredAt ? "delivered" : order.shippedAt ? "shipped" : "paid";
}
