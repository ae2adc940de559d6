import Stripe from "stripe";
import { TransactionRollbackError, and, eq, inArray } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { accounts, billingAutoTopUpAttempts, billingAutoTopUps, memberships } from "@/lib/foundation/db/schema";
import { conflict } from "@/lib/foundation/http/api-error";
import { logger } from "@/lib/foundation/log/logger";
import { grantTokens } from "@/lib/domain/wallet/grant-tokens";
import { emitWebhookEvent } from "@/lib/domain/webhooks/emit";
import { recordAudit } from "@/lib/domain/audit/record-audit";
import { sendMail } from "@/lib/domain/mail/send-mail";
import { autoTopUpFailedMail } from "@/lib/domain/mail/templates";
import { requirePack, tokenPacks } from "./packs";
import { stripe } from "./stripe-client";
import type { StripeEventOutcome } from "./stripe-event-outcome";

type Settings = typeof billingAutoTopUps.$inferSelect;

function toPublic(row: Settings | undefined) {
  return {
    enabled: row?.enabled ?? false,
    threshold: row?.threshold ?? 0,
    pack: row?.packId ?? null,
    card: row?.paymentMethodId ? { label: row.cardLabel ?? "saved card" } : null,
    in_flight: Boolean(row?.inFlightId),
    last_failure: row?.lastFailure ? { message: row.lastFailure, at: (row.lastFailedAt ?? row.updatedAt).toISOString() } : null,
  };
}

/** GET /v1/billing/auto-top-up. */
export async function getAutoTopUp(db: Db, accountId: string) {
  const [row] = await db.select().from(billingAutoTopUps).where(eq(billingAutoTopUps.accountId, accountId));
  return toPublic(row);
}

/**
 * PUT /v1/billing/auto-top-up. Turning it on needs a card saved at a checkout (the
 * customer agreed there to later charges); it acts from the next debit that leaves
 * the balance under the threshold. Turning it on again clears the last failure.
 */
export async function setAutoTopUp(db: Db, accountId: string, input: { enabled: boolean; threshold: number; pack: string }) {
  requirePack(input.pack);
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(billingAutoTopUps).where(eq(billingAutoTopUps.accountId, accountId)).for("update");
    if (input.enabled && !row?.paymentMethodId) {
      throw conflict("NO_SAVED_CARD", "Auto top-up charges a saved card: buy a token pack once with \"Save this card for auto top-up\" ticked, then turn it on.");
    }
    const values = { enabled: input.enabled, threshold: input.threshold, packId: input.pack, updatedAt: new Date(), ...(input.enabled ? { lastFailure: null, lastFailedAt: null } : {}) };
    const [saved] = await tx
      .insert(billingAutoTopUps)
      .values({ accountId, ...values })
      .onConflictDoUpdate({ target: billingAutoTopUps.accountId, set: values })
      .returning();
    await recordAudit(tx, { accountId, action: "billing.auto_top_up_changed", target: accountId, data: { enabled: input.enabled, threshold: input.threshold, pack: input.pack } });
    return toPublic(saved);
  });
}

/**
 * After a checkout paid with "save this card" (setup_future_usage off_session): the
 * card becomes the one auto top-up charges. Asked of Stripe after the credit, so a
 * Stripe hiccup here never holds up the tokens bought.
 */
export async function saveCardFromCheckout(db: Db, accountId: string, paymentIntentId: string): Promise<void> {
  const pi = await stripe().paymentIntents.retrieve(paymentIntentId, { expand: ["payment_method"] });
  const pm = pi.payment_method;
  if (!pm) return;
  const id = typeof pm === "string" ? pm : pm.id;
  const card = typeof pm === "string" ? undefined : pm.card;
  const cardLabel = card ? `${card.brand} •••• ${card.last4}` : "saved card";
  await db
    .insert(billingAutoTopUps)
    .values({ accountId, paymentMethodId: id, cardLabel, packId: tokenPacks()[0]?.id ?? null })
    .onConflictDoUpdate({ target: billingAutoTopUps.accountId, set: { paymentMethodId: id, cardLabel, updatedAt: new Date() } });
}

/**
 * The job's step: charges the saved card off-session for the claimed attempt. The
 * attempt id is Stripe's idempotency key, so a retried step never charges twice.
 * Tokens are credited from the payment_intent.succeeded webhook (creditAutoTopUp),
 * like every card payment. A card error (declined, or the bank wants its holder to
 * authenticate) ends the attempt and turns auto top-up off; anything else throws,
 * for the job's retries.
 */
export async function chargeAutoTopUp(db: Db, attemptId: string): Promise<"charged" | "failed" | "skipped"> {
  const [attempt] = await db.select().from(billingAutoTopUpAttempts).where(eq(billingAutoTopUpAttempts.id, attemptId));
  if (!attempt || (attempt.status !== "pending" && attempt.status !== "charging")) return "skipped";
  const [settings] = await db.select().from(billingAutoTopUps).where(eq(billingAutoTopUps.accountId, attempt.accountId));
  const [account] = await db.select({ customer: accounts.stripeCustomerId }).from(accounts).where(eq(accounts.id, attempt.accountId));
  let pack;
  try {
    pack = requirePack(attempt.packId);
  } catch {
    await failAutoTopUp(db, attemptId, `The pack "${attempt.packId}" is no longer sold.`, { disable: true });
    return "failed";
  }
  if (!settings?.paymentMethodId || !account?.customer) {
    await failAutoTopUp(db, attemptId, "No saved card to charge.", { disable: true });
    return "failed";
  }
  await db.update(billingAutoTopUpAttempts).set({ status: "charging", tokens: pack.tokens, amount: pack.price, currency: pack.currency }).where(eq(billingAutoTopUpAttempts.id, attemptId));
  const metadata = { account_id: attempt.accountId, pack: pack.id, tokens: String(pack.tokens), auto_top_up: attemptId };
  let pi: Stripe.PaymentIntent;
  try {
    pi = await stripe().paymentIntents.create(
      { amount: pack.price, currency: pack.currency, customer: account.customer, payment_method: settings.paymentMethodId, off_session: true, confirm: true, metadata, description: `Auto top-up: ${pack.tokens.toLocaleString("en-US")} tokens` },
      { idempotencyKey: attemptId },
    );
  } catch (err) {
    if (err instanceof Stripe.errors.StripeCardError) {
      const why = err.code === "authentication_required" ? "The bank asks the card holder to confirm this payment; off-session charges cannot." : err.message;
      await failAutoTopUp(db, attemptId, `The card was not charged: ${why}`, { disable: true });
      return "failed";
    }
    throw err;
  }
  await db.update(billingAutoTopUpAttempts).set({ paymentIntentId: pi.id }).where(eq(billingAutoTopUpAttempts.id, attemptId));
  if (pi.status === "requires_action" || pi.status === "requires_payment_method") {
    await failAutoTopUp(db, attemptId, "The bank asks the card holder to confirm this payment; off-session charges cannot.", { disable: true });
    return "failed";
  }
  return "charged";
}

/**
 * Ends an attempt that did not pay. `disable`: the card's fault (declined, needs
 * authentication): auto top-up turns off, the account is told (webhook event,
 * email to its owners, the wallet's banner). Otherwise (Stripe unreachable after the
 * job's retries) only the claim is released, so the next debit tries again.
 */
export async function failAutoTopUp(db: Db, attemptId: string, message: string, opts: { disable: boolean }): Promise<void> {
  const failed = await db.transaction(async (tx) => {
    const [attempt] = await tx
      .update(billingAutoTopUpAttempts)
      .set({ status: "failed", failure: message, finishedAt: new Date() })
      .where(and(eq(billingAutoTopUpAttempts.id, attemptId), inArray(billingAutoTopUpAttempts.status, ["pending", "charging"])))
      .returning();
    if (!attempt) return undefined;
    await tx
      .update(billingAutoTopUps)
      .set({ inFlightId: null, inFlightSince: null, updatedAt: new Date(), ...(opts.disable ? { enabled: false, lastFailure: message, lastFailedAt: new Date() } : {}) })
      .where(and(eq(billingAutoTopUps.accountId, attempt.accountId), eq(billingAutoTopUps.inFlightId, attemptId)));
    if (opts.disable) {
      await emitWebhookEvent(tx, {
        accountId: attempt.accountId,
        type: "billing.auto_top_up_failed",
        data: { attempt_id: attempt.id, pack: attempt.packId, message, auto_top_up_enabled: false },
      });
    }
    return attempt;
  });
  if (!failed || !opts.disable) return;
  logger().warn({ account_id: failed.accountId, attempt: attemptId }, `auto top-up failed and was turned off: ${message}`);
  const owners = await db
    .select({ email: accounts.email, studio: memberships.accountId })
    .from(memberships)
    .innerJoin(accounts, eq(accounts.id, memberships.userId))
    .where(and(eq(memberships.accountId, failed.accountId), eq(memberships.role, "owner")));
  const [studio] = await db.select({ name: accounts.name }).from(accounts).where(eq(accounts.id, failed.accountId));
  for (const owner of owners) {
    // Keyed by the attempt: a repeated failure report for it tells each owner once.
    await sendMail(db, autoTopUpFailedMail(owner.email, studio?.name ?? "your studio", message), { key: `auto-top-up-failed:${attemptId}:${owner.email}`, accountId: failed.accountId });
  }
}

/**
 * payment_intent.succeeded for an auto top-up: credits the pack once (the attempt
 * row's conditional update is the lock, as for checkouts) and releases the claim.
 */
export async function creditAutoTopUp(db: Db, pi: Stripe.PaymentIntent): Promise<StripeEventOutcome> {
  const attemptId = pi.metadata?.auto_top_up;
  if (!attemptId) return "ignored";
  return db
    .transaction(async (tx): Promise<StripeEventOutcome> => {
      const [attempt] = await tx
        .update(billingAutoTopUpAttempts)
        .set({ status: "succeeded", paymentIntentId: pi.id, finishedAt: new Date() })
        .where(and(eq(billingAutoTopUpAttempts.id, attemptId), inArray(billingAutoTopUpAttempts.status, ["pending", "charging"])))
        .returning();
      if (!attempt) {
        const [known] = await tx.select({ status: billingAutoTopUpAttempts.status }).from(billingAutoTopUpAttempts).where(eq(billingAutoTopUpAttempts.id, attemptId));
        return known?.status === "succeeded" ? "already_credited" : "ignored";
      }
      if (attempt.amount !== pi.amount || attempt.currency !== pi.currency || !attempt.tokens) {
        logger().error({ attempt: attemptId, expected: { amount: attempt.amount, currency: attempt.currency }, got: { amount: pi.amount, currency: pi.currency } }, "stripe: auto top-up amount differs; not credited");
        tx.rollback();
      }
      const entry = await grantTokens(tx, {
        accountId: attempt.accountId,
        amount: attempt.tokens!,
        type: "purchase",
        operation: "auto_top_up",
        reference: attempt.id,
        note: `Auto top-up: ${attempt.tokens!.toLocaleString("en-US")} tokens (${attempt.packId}), ${(attempt.amount! / 100).toFixed(2)} ${attempt.currency!.toUpperCase()} by card`,
      });
      await tx.update(billingAutoTopUpAttempts).set({ walletTransactionId: entry.id }).where(eq(billingAutoTopUpAttempts.id, attempt.id));
      await tx.update(billingAutoTopUps).set({ inFlightId: null, inFlightSince: null, updatedAt: new Date() }).where(and(eq(billingAutoTopUps.accountId, attempt.accountId), eq(billingAutoTopUps.inFlightId, attempt.id)));
      return "credited";
    })
    .catch((err: unknown) => {
      if (err instanceof TransactionRollbackError) return "ignored" as const;
      throw err;
    });
}

/** payment_intent.payment_failed for an auto top-up (a charge that failed after being accepted). */
export async function autoTopUpPaymentFailed(db: Db, pi: Stripe.PaymentIntent): Promise<StripeEventOutcome> {
  const attemptId = pi.metadata?.auto_top_up;
  if (!attemptId) return "ignored";
  await failAutoTopUp(db, attemptId, `The card was not charged: ${pi.last_payment_error?.message ?? "the payment failed"}`, { disable: true });
  return "recorded";
}

