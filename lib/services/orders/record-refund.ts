import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { orderItems, orderRefunds, orders } from "@/lib/foundation/db/schema";
import { emitWebhookEvent } from "@/lib/domain/webhooks/emit";
import { queueMail, sendQueuedMail } from "@/lib/domain/mail/send-mail";
import { recordAudit } from "@/lib/domain/audit/record-audit";
import { loadOrder } from "./present-order";
import { orderStatusUrl } from "./order-link";
import { refundMail } from "./order-mail";
import { studioName } from "./studio-name";

export type RefundInput = { orderId: string; stripeRefundId: string; amount: number; itemId: string | null; reason: string | null };

/**
 * Records one Stripe refund against its order, once: keyed by Stripe's refund id,
 * so the studio's API call and the refund's webhook (or ten copies of it) make one
 * row, one change of the amounts, one `order.refunded` event and one e-mail.
 * A whole refund ends the order (`refunded`); lab cost is kept only for what was
 * already produced and shipped.
 */
export async function recordRefund(db: Db, input: RefundInput): Promise<"recorded" | "already_recorded"> {
  const mail = await db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, input.orderId)).for("update");
    if (!order) return null;
    const [row] = await tx
      .insert(orderRefunds)
      .values({ stripeRefundId: input.stripeRefundId, orderId: order.id, accountId: order.accountId, orderItemId: input.itemId, amount: input.amount, reason: input.reason })
      .onConflictDoNothing()
      .returning();
    if (!row) return null;
    const refunded = Math.min(order.total, order.refundedAmount + input.amount);
    const whole = refunded >= order.total;
    let labCost = order.labCost;
    if (input.itemId) {
      const [item] = await tx
        .update(orderItems)
        .set({ refundedAmount: sql`${orderItems.refundedAmount} + ${input.amount}` })
        .where(and(eq(orderItems.id, input.itemId), eq(orderItems.orderId, order.id)))
        .returning();
      if (item && !order.shippedAt) labCost = Math.max(0, labCost - item.unitLabCost * item.quantity);
    } else if (whole && !order.shippedAt) labCost = 0;
    // A canceled order stays canceled (its late payment refunded, or the studio's cancel).
    const ends = whole && order.status !== "canceled" && order.status !== "refunded";
    await tx
      .update(orders)
      .set({ refundedAmount: refunded, labCost, ...(ends ? { status: "refunded" as const } : {}) })
      .where(eq(orders.id, order.id));
    // What the order returns to if this refund fails after all (reverse-refund.ts).
    if (ends) await tx.update(orderRefunds).set({ statusBefore: order.status }).where(eq(orderRefunds.stripeRefundId, row.stripeRefundId));
    await recordAudit(tx, { accountId: order.accountId, action: "order.refunded", target: order.id, data: { amount: input.amount, item_id: input.itemId, refund: input.stripeRefundId } });
    const present = await loadOrder(tx, order.accountId, order.id);
    await emitWebhookEvent(tx, { accountId: order.accountId, type: "order.refunded", data: { ...present, refund: { id: input.stripeRefundId, amount: input.amount, item_id: input.itemId } } });
    const studio = await studioName(tx, order.accountId);
    return queueMail(tx, refundMail(present, studio, input.amount, orderStatusUrl(order.id)), { key: `order-refund-${input.stripeRefundId}`, accountId: order.accountId });
  });
  if (!mail) return "already_recorded";
  await sendQueuedMail(db, mail);
  return "recorded";
}
