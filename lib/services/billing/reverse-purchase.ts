import type Stripe from "stripe";
import { eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { accounts, billingCheckouts, billingReversals, wallets, walletTransactions } from "@/lib/foundation/db/schema";
import { newId } from "@/lib/foundation/ids";
import { logger } from "@/lib/foundation/log/logger";
import { countNoun } from "@/lib/foundation/count-noun";
import { forgetAccount } from "@/lib/domain/identity/principal-cache";
import type { StripeEventOutcome } from "./stripe-event-outcome";

type Reversal = {
  /** The Stripe state this reversal is for: one row each, so a repeated event takes nothing twice. */
  key: string;
  kind: "refund" | "dispute";
  paymentIntentId: string | null;
  /** The charge's amount, and the part refunded so far (cumulative) or disputed, in minor units. */
  chargeAmount: number;
  reversedAmount: number;
};

/** `charge.refunded`: `amount_refunded` is cumulative, so partial refunds each take their own share. */
export function reverseRefundedCharge(db: Db, charge: Stripe.Charge): Promise<StripeEventOutcome> {
  return reversePurchase(db, {
    key: `refund:${charge.id}:${charge.amount_refunded}`,
    kind: "refund",
    paymentIntentId: idOf(charge.payment_intent),
    chargeAmount: charge.amount,
    reversedAmount: charge.amount_refunded,
  });
}

/** `charge.dispute.created`: the bank takes the disputed amount back at once, so the tokens go too. */
export function reverseDisputedCharge(db: Db, dispute: Stripe.Dispute): Promise<StripeEventOutcome> {
  return reversePurchase(db, {
    key: dispute.id,
    kind: "dispute",
    paymentIntentId: idOf(dispute.payment_intent),
    chargeAmount: 0, // the checkout's own amount is used (a dispute carries only its own amount)
    reversedAmount: dispute.amount,
  });
}

/**
 * Takes back the tokens a refund or dispute no longer pays for: the refunded share of the
 * pack (rounded to the nearest token), less what earlier refunds of the same payment took.
 * What the wallet still holds leaves it in a `reversal` ledger row; what was already spent
 * cannot be taken, so the account is put on hold until an operator settles it. The
 * checkout row's lock serialises every event about one payment, on every instance.
 */
async function reversePurchase(db: Db, r: Reversal): Promise<StripeEventOutcome> {
  if (!r.paymentIntentId) return "ignored";
  let held: string | undefined;
  const outcome = await db.transaction(async (tx): Promise<StripeEventOutcome> => {
    const [checkout] = await tx.select().from(billingCheckouts).where(eq(billingCheckouts.paymentIntentId, r.paymentIntentId!)).for("update");
    if (!checkout || checkout.status !== "paid") {
      // Premium invoices and payments this server did not sell are settled in Stripe's dashboard.
      logger().warn({ key: r.key, paymentIntent: r.paymentIntentId }, "stripe: refund or dispute of a payment that bought no token pack; ignored");
      return "ignored";
    }
    const [seen] = await tx.select({ id: billingReversals.id }).from(billingReversals).where(eq(billingReversals.id, r.key));
    if (seen) return "already_credited";

    const earlier = await tx
      .select({ kind: billingReversals.kind, taken: sql<number>`sum(${billingReversals.tokens} + ${billingReversals.shortfall})::int` })
      .from(billingReversals)
      .where(eq(billingReversals.checkoutId, checkout.id))
      .groupBy(billingReversals.kind);
    const takenBy = (kind: string) => earlier.find((e) => e.kind === kind)?.taken ?? 0;
    const takenAll = takenBy("refund") + takenBy("dispute");
    const share = Math.min(1, r.reversedAmount / (r.kind === "refund" && r.chargeAmount > 0 ? r.chargeAmount : checkout.amount));
    const owed = Math.round(checkout.tokens * share) - (r.kind === "refund" ? takenBy("refund") : 0);
    const due = Math.max(0, Math.min(owed, checkout.tokens - takenAll));

    const [wallet] = await tx.select({ balance: wallets.balance }).from(wallets).where(eq(wallets.accountId, checkout.accountId)).for("update");
    const take = Math.min(due, wallet?.balance ?? 0);
    const shortfall = due - take;
    const what = r.kind === "refund" ? "refunded" : "disputed";
    let walletTransactionId: string | null = null;
    if (take > 0) {
      const [after] = await tx
        .update(wallets)
        .set({ balance: sql`${wallets.balance} - ${take}`, updatedAt: new Date() })
        .where(eq(wallets.accountId, checkout.accountId))
        .returning({ balance: wallets.balance });
      const [row] = await tx
        .insert(walletTransactions)
        .values({
          id: newId("wtx"),
          accountId: checkout.accountId,
          type: "reversal",
          amount: -take,
          balanceAfter: after!.balance,
          operation: r.kind === "refund" ? "token_pack_refund" : "token_pack_dispute",
          reference: checkout.id,
          note: `The card payment for ${countNoun(checkout.tokens, "tokens")} (${checkout.packId}) was ${what}: ${countNoun(take, "tokens")} taken back.`,
        })
        .returning({ id: walletTransactions.id });
      walletTransactionId = row!.id;
    }
    if (shortfall > 0) {
      const reason = `A card payment for ${countNoun(checkout.tokens, "tokens")} was ${what} after ${shortfall} of them had been spent.`;
      await tx.update(accounts).set({ holdReason: reason, heldAt: new Date() }).where(eq(accounts.id, checkout.accountId));
      held = checkout.accountId;
      logger().warn({ account: checkout.accountId, checkout: checkout.id, shortfall }, "stripe: spent tokens of a reversed payment; account on hold");
    }
    await tx.insert(billingReversals).values({ id: r.key, accountId: checkout.accountId, checkoutId: checkout.id, kind: r.kind, tokens: take, shortfall, walletTransactionId });
    return "recorded";
  });
  // This process serves the held account at once; other instances within the account cache's 2 s.
  if (held) forgetAccount(held);
  return outcome;
}

function idOf(ref: string | { id: string } | null | undefined): string | null {
  return typeof ref === "string" ? ref : (ref?.id ?? null);
}
