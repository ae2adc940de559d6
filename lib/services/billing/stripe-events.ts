import type Stripe from "stripe";
import { TransactionRollbackError, and, eq, inArray } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { billingCheckouts } from "@/lib/foundation/db/schema";
import { grantTokens } from "@/lib/domain/wallet/grant-tokens";
import { logger } from "@/lib/foundation/log/logger";
import { ApiError } from "@/lib/foundation/http/api-error";
import { stripe, webhookSecret } from "./stripe-client";
import { applySubscriptionEvent, grantPremiumAllowance } from "./premium";
import { reverseDisputedCharge, reverseRefundedCharge } from "./reverse-purchase";
import { autoTopUpPaymentFailed, creditAutoTopUp, saveCardFromCheckout } from "./auto-top-up";
import type { StripeEventOutcome } from "./stripe-event-outcome";

export type { StripeEventOutcome };

/** The event, if its Stripe-Signature header is valid for the raw body (and recent: 5 minutes). */
export function verifyStripeEvent(rawBody: string, signature: string | null): Stripe.Event {
  const secret = webhookSecret();
  if (!signature) throw new ApiError(400, "MISSING_SIGNATURE", "The Stripe-Signature header is missing.");
  try {
    return stripe().webhooks.constructEvent(rawBody, signature, secret);
  } catch (err) {
    throw new ApiError(400, "INVALID_SIGNATURE", `The Stripe-Signature header does not verify: ${(err as Error).message}`);
  }
}

export async function handleStripeEvent(db: Db, event: Stripe.Event): Promise<StripeEventOutcome> {
  switch (event.type) {
    case "checkout.session.completed":
      // A delayed method (bank debit) completes the session unpaid: credit when it succeeds.
      if (event.data.object.payment_status === "unpaid") return setStatus(db, event.data.object, ["open"], "awaiting_payment");
      return creditCheckout(db, event.data.object).then((outcome) => rememberCard(db, event.data.object, outcome));
    case "checkout.session.async_payment_succeeded":
      return creditCheckout(db, event.data.object);
    case "checkout.session.async_payment_failed":
      return setStatus(db, event.data.object, ["open", "awaiting_payment"], "failed");
    case "checkout.session.expired":
      return setStatus(db, event.data.object, ["open"], "expired");
    case "customer.subscription.created":
    case "customer.subscription.updated":
    case "customer.subscription.deleted":
      return applySubscriptionEvent(db, event.data.object, event.created);
    case "invoice.paid":
      return grantPremiumAllowance(db, event.data.object);
    case "charge.refunded":
      return reverseRefundedCharge(db, event.data.object);
    case "charge.dispute.created":
      return reverseDisputedCharge(db, event.data.object);
    case "payment_intent.succeeded":
      return creditAutoTopUp(db, event.data.object);
    case "payment_intent.payment_failed":
      return autoTopUpPaymentFailed(db, event.data.object);
    default:
      return "ignored";
  }
}

/** A pack bought with "save this card for auto top-up": its card is kept for later off-session charges. */
async function rememberCard(db: Db, session: Stripe.Checkout.Session, outcome: StripeEventOutcome): Promise<StripeEventOutcome> {
  const paymentIntent = typeof session.payment_intent === "string" ? session.payment_intent : session.payment_intent?.id;
  const accountId = session.metadata?.account_id;
  if (outcome !== "credited" || session.metadata?.save_card !== "1" || !paymentIntent || !accountId) return outcome;
  await saveCardFromCheckout(db, accountId, paymentIntent).catch((err: Error) => logger().warn({ session: session.id }, `stripe: the card could not be saved for auto top-up: ${err.message}`));
  return outcome;
}

async function setStatus(db: Db, session: Stripe.Checkout.Session, from: ("open" | "awaiting_payment")[], to: "awaiting_payment" | "failed" | "expired"): Promise<StripeEventOutcome> {
  const rows = await db.update(billingCheckouts).set({ status: to }).where(and(eq(billingCheckouts.id, session.id), inArray(billingCheckouts.status, from))).returning({ id: billingCheckouts.id });
  return rows.length ? "recorded" : "ignored";
}

/**
 * Credits a paid session once. The conditional update takes the row's lock and
 * flips it to `paid`: a second copy of the event (retried, duplicated, concurrent,
 * on another instance) waits for that lock, then finds the row paid and does
 * nothing. The ledger row and the link to it commit in the same transaction.
 */
async function creditCheckout(db: Db, session: Stripe.Checkout.Session): Promise<StripeEventOutcome> {
  // Premium's checkout (mode subscription) is followed through its subscription events.
  if (session.mode !== "payment" || (session.payment_status !== "paid" && session.payment_status !== "no_payment_required")) return "ignored";
  const paymentIntent = typeof session.payment_intent === "string" ? session.payment_intent : (session.payment_intent?.id ?? null);
  return db.transaction(async (tx): Promise<StripeEventOutcome> => {
    const [row] = await tx
      .update(billingCheckouts)
      .set({ status: "paid", paidAt: new Date(), paymentIntentId: paymentIntent })
      .where(and(eq(billingCheckouts.id, session.id), inArray(billingCheckouts.status, ["open", "awaiting_payment"])))
      .returning();
    if (!row) {
      const [known] = await tx.select({ status: billingCheckouts.status }).from(billingCheckouts).where(eq(billingCheckouts.id, session.id));
      if (!known) logger().warn({ session: session.id }, "stripe: a paid checkout session this server did not create; ignored");
      return known?.status === "paid" ? "already_credited" : "ignored";
    }
    // What was sold is what we recorded; an event that disagrees is not credited (and is logged).
    if (session.amount_total !== row.amount || session.currency !== row.currency) {
      logger().error({ session: session.id, expected: { amount: row.amount, currency: row.currency }, got: { amount: session.amount_total, currency: session.currency } }, "stripe: paid amount differs from the pack sold; not credited");
      tx.rollback();
    }
    const entry = await grantTokens(tx, {
      accountId: row.accountId,
      amount: row.tokens,
      type: "purchase",
      operation: "token_pack",
      reference: session.id,
      note: `${row.tokens.toLocaleString("en-US")} tokens (${row.packId}), ${(row.amount / 100).toFixed(2)} ${row.currency.toUpperCase()} by card`,
    });
    await tx.update(billingCheckouts).set({ walletTransactionId: entry.id }).where(eq(billingCheckouts.id, row.id));
    return "credited";
  }).catch((err: unknown) => {
    if (err instanceof TransactionRollbackError) return "ignored" as const;
    throw err;
  });
}
