import { eq } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { orders } from "@/lib/foundation/db/schema";
import { emitWebhookEvent } from "@/lib/domain/webhooks/emit";
import { queueMail, type QueuedMail } from "@/lib/domain/mail/send-mail";
import { loadOrder } from "./present-order";
import { orderStatusUrl } from "./order-link";
import { receiptMail } from "./order-mail";
import { orderDownloads } from "./download-links";
import { studioName } from "./studio-name";

/**
 * A pending order becomes paid, in the caller's transaction (which holds the
 * order's row): the payment's ids, `order.paid`, and the receipt queued once.
 * Stripe's verified webhook calls it, and a checkout whose total is zero.
 */
export async function settlePaid(tx: Db, order: { id: string; accountId: string }, payment: { paymentIntentId: string | null; sessionId: string | null }): Promise<QueuedMail> {
  await tx.update(orders).set({ status: "paid", paidAt: new Date(), paymentIntentId: payment.paymentIntentId, ...(payment.sessionId ? { stripeSessionId: payment.sessionId } : {}) }).where(eq(orders.id, order.id));
  const present = await loadOrder(tx, order.accountId, order.id);
  await emitWebhookEvent(tx, { accountId: order.accountId, type: "order.paid", data: present });
  const studio = await studioName(tx, order.accountId);
  const downloads = await orderDownloads(tx, order.id);
  return queueMail(tx, receiptMail(present, studio, orderStatusUrl(order.id), downloads), { key: `order-receipt-${order.id}`, accountId: order.accountId });
}
