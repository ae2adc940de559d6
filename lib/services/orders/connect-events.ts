import type Stripe from "stripe";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { orderDisputes, orders, promoCodes } from "@/lib/foundation/db/schema";
import { sendQueuedMail, type QueuedMail } from "@/lib/domain/mail/send-mail";
import { logger } from "@/lib/foundation/log/logger";
import { stripe, viaStripe } from "@/lib/services/billing/stripe-client";
import { applyAccountUpdated } from "./stripe-connect";
import { recordRefund } from "./record-refund";
import { reverseFailedRefund } from "./reverse-refund";
import { settlePaid } from "./settle-paid";

export type ConnectEventOutcome = "paid" | "already_paid" | "recorded" | "already_recorded" | "ignored";

/**
 * Events from the studios' connected accounts (Stripe Connect: the event names
 * the account). Only these move an order's money: paid, refunded, disputed. Each
 * is applied once whatever the number of copies, and only for an order of that
 * connected account.
 */
export async function handleConnectEvent(db: Db, event: Stripe.Event & { account: string }): Promise<ConnectEventOutcome> {
  switch (event.type) {
    case "account.updated":
      return applyAccountUpdated(db, event.data.object);
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded":
      if (event.data.object.payment_status !== "paid") return "ignored";
      return markPaid(db, event.account, event.data.object);
    case "checkout.session.expired":
      return expireOrder(db, event.account, event.data.object);
    case "refund.created":
    case "refund.updated":
    case "refund.failed":
    case "charge.refund.updated":
      return refundFromStripe(db, event.account, event.data.object);
    case "charge.dispute.created":
      return recordDispute(db, event.account, event.data.object);
    default:
      return "ignored";
  }
}

const orderIdOf = (session: Stripe.Checkout.Session) => session.client_reference_id ?? session.metadata?.order_id ?? "";
const orderOf = (accountId: string, session: Stripe.Checkout.Session) => and(eq(orders.id, orderIdOf(session)), eq(orders.stripeAccountId, accountId));

/**
 * pending → paid, once: the conditional update takes the row's lock, so of any
 * number of concurrent copies one changes the row and the others find it paid.
 * The receipt and `order.paid` are written in the same transaction; the amount
 * paid must be the order's total (computed at checkout), or nothing changes.
 * A payment that completes after the order was canceled (the studio canceled it
 * while the parent was on Stripe's page) is refunded at once, in full.
 */
async function markPaid(db: Db, stripeAccount: string, session: Stripe.Checkout.Session): Promise<ConnectEventOutcome> {
  const paymentIntent = typeof session.payment_intent === "string" ? session.payment_intent : (session.payment_intent?.id ?? null);
  const mail = await db.transaction(async (tx): Promise<QueuedMail | "already_paid" | "ignored" | "late"> => {
    const [order] = await tx.select().from(orders).where(orderOf(stripeAccount, session)).for("update");
    if (!order) {
      logger().warn({ session: session.id }, "stripe connect: a paid session for no order of that account; ignored");
      return "ignored";
    }
    if (order.status === "canceled" && !order.paidAt && paymentIntent) {
      await tx.update(orders).set({ paymentIntentId: paymentIntent, stripeSessionId: session.id }).where(eq(orders.id, order.id));
      return "late";
    }
    if (order.status !== "pending") return order.paidAt ? "already_paid" : "ignored";
    if (session.amount_total !== order.total || session.currency !== order.currency) {
      logger().error({ order: order.id, expected: order.total, got: session.amount_total }, "stripe connect: paid amount differs from the order's total; not marked paid");
      return "ignored";
    }
    return settlePaid(tx, order, { paymentIntentId: paymentIntent, sessionId: session.id });
  });
  if (mail === "late") return refundLatePayment(db, stripeAccount, orderIdOf(session), paymentIntent!, session.amount_total ?? 0);
  if (typeof mail === "string") return mail;
  await sendQueuedMail(db, mail);
  return "paid";
}

/**
 * The whole payment of a canceled order goes back. Every copy of the event comes
 * here until the refund is recorded: Stripe's idempotency key makes one refund of
 * them all, and the refund is recorded once by its id (the order stays canceled).
 */
async function refundLatePayment(db: Db, stripeAccount: string, orderId: string, paymentIntent: string, amount: number): Promise<ConnectEventOutcome> {
  const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
  if (!order || order.refundedAmount >= amount) return "already_recorded";
  logger().warn({ order: orderId }, "stripe connect: a payment completed after the order was canceled; refunding it");
  const refund = await viaStripe("refund a payment made after the order was canceled", () =>
    stripe().refunds.create(
      { payment_intent: paymentIntent, refund_application_fee: true, metadata: { order_id: orderId, reason: "order canceled before payment" } },
      { stripeAccount, idempotencyKey: `order-late-payment-${orderId}` },
    ),
  );
  await recordRefund(db, { orderId, stripeRefundId: refund.id, amount: refund.amount, itemId: null, reason: "order canceled before payment" });
  return "recorded";
}

/** An abandoned checkout: the order is canceled and its promo use given back. */
async function expireOrder(db: Db, stripeAccount: string, session: Stripe.Checkout.Session): Promise<ConnectEventOutcome> {
  return db.transaction(async (tx) => {
    const [order] = await tx.update(orders).set({ status: "canceled", canceledAt: new Date() }).where(and(orderOf(stripeAccount, session), eq(orders.status, "pending"))).returning();
    if (!order) return "ignored";
    if (order.promoCode && order.priceSheetId) {
      await tx.update(promoCodes).set({ uses: sql`greatest(${promoCodes.uses} - 1, 0)` }).where(and(eq(promoCodes.priceSheetId, order.priceSheetId), eq(promoCodes.code, order.promoCode)));
    }
    return "recorded";
  });
}

/**
 * A refund made in Stripe (the studio's dashboard, or ours through the API):
 * recorded once by its id. One Stripe later reports failed or canceled is
 * reversed in our records (reverse-refund.ts).
 */
async function refundFromStripe(db: Db, stripeAccount: string, refund: Stripe.Refund): Promise<ConnectEventOutcome> {
  if (refund.status === "failed" || refund.status === "canceled") return reverseFailedRefund(db, stripeAccount, refund.id);
  const paymentIntent = typeof refund.payment_intent === "string" ? refund.payment_intent : refund.payment_intent?.id;
  if (!paymentIntent) return "ignored";
  const [order] = await db.select({ id: orders.id }).from(orders).where(and(eq(orders.paymentIntentId, paymentIntent), eq(orders.stripeAccountId, stripeAccount)));
  if (!order) return "ignored";
  const itemId = refund.metadata?.order_item_id || null;
  return recordRefund(db, { orderId: order.id, stripeRefundId: refund.id, amount: refund.amount, itemId, reason: refund.metadata?.reason || null });
}

/** A chargeback: recorded once per dispute, and the order marked disputed for the studio to answer in Stripe. */
async function recordDispute(db: Db, stripeAccount: string, dispute: Stripe.Dispute): Promise<ConnectEventOutcome> {
  const paymentIntent = typeof dispute.payment_intent === "string" ? dispute.payment_intent : dispute.payment_intent?.id;
  if (!paymentIntent) return "ignored";
  return db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(and(eq(orders.paymentIntentId, paymentIntent), eq(orders.stripeAccountId, stripeAccount)));
    if (!order) return "ignored";
    const [row] = await tx
      .insert(orderDisputes)
      .values({ stripeDisputeId: dispute.id, orderId: order.id, accountId: order.accountId, amount: dispute.amount, reason: dispute.reason ?? null, status: dispute.status })
      .onConflictDoNothing()
      .returning();
    if (!row) return "already_recorded";
    await tx.update(orders).set({ disputed: true }).where(eq(orders.id, order.id));
    return "recorded";
  });
}
