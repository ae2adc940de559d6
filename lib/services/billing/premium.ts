import { recordAudit } from "@/lib/domain/audit/record-audit";
import type Stripe from "stripe";
import { and, eq, gt, inArray, isNull, or, sql } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { accounts, billingGrants, billingSubscriptions } from "@/lib/foundation/db/schema";
import { config } from "@/lib/foundation/config";
import { appOrigin } from "@/lib/foundation/http/app-origin";
import { setPlan } from "@/lib/domain/identity/set-plan";
import { grantTokens } from "@/lib/domain/wallet/grant-tokens";
import { logger } from "@/lib/foundation/log/logger";
import { ensureCustomer, type Account } from "./stripe-customer";
import { stripe, viaStripe } from "./stripe-client";

/** Checkout in subscription mode: Premium, monthly, at PREMIUM_MONTHLY_PRICE. */
export async function startPremiumCheckout(db: Db, account: Account) {
  const { PREMIUM_MONTHLY_PRICE: price, PREMIUM_CURRENCY: currency } = config();
  const customer = await ensureCustomer(db, account);
  const origin = appOrigin();
  const metadata = { account_id: account.id, plan: "premium" };
  const session = await viaStripe("open a checkout page", () =>
    stripe().checkout.sessions.create({
      mode: "subscription",
      customer,
      client_reference_id: account.id,
      line_items: [{ quantity: 1, price_data: { currency, unit_amount: price, recurring: { interval: "month" }, product_data: { name: "Print Studio Premium" } } }],
      metadata,
      subscription_data: { metadata },
      success_url: `${origin}/wallet/top-up?premium=started`,
      cancel_url: `${origin}/wallet/top-up?canceled=1`,
    }),
  );
  if (!session.url) throw new Error(`Stripe returned checkout session ${session.id} without a URL`);
  await recordAudit(db, { accountId: account.id, action: "billing.checkout_started", target: session.id, data: { plan: "premium" } });
  return { checkout_url: session.url, session_id: session.id };
}

/** Stripe's customer portal: cards, invoices, cancelling Premium. */
export async function openPortal(db: Db, account: Account) {
  const customer = await ensureCustomer(db, account);
  const portal = await viaStripe("open the billing portal", () => stripe().billingPortal.sessions.create({ customer, return_url: `${appOrigin()}/wallet/top-up` }));
  return { portal_url: portal.url };
}

const customerId = (c: string | { id: string } | null) => (typeof c === "string" ? c : (c?.id ?? null));

async function accountOfCustomer(db: Db, customer: string | null) {
  if (!customer) return undefined;
  const [row] = await db.select({ id: accounts.id }).from(accounts).where(eq(accounts.stripeCustomerId, customer));
  return row?.id;
}

/**
 * customer.subscription.created / updated / deleted: the subscription row follows the
 * newest event (an older one arriving late is skipped), then the plan is recomputed.
 */
export async function applySubscriptionEvent(db: Db, sub: Stripe.Subscription, eventCreated: number): Promise<"recorded" | "ignored"> {
  const accountId = (await accountOfCustomer(db, customerId(sub.customer))) ?? sub.metadata?.account_id;
  if (!accountId) {
    logger().warn({ subscription: sub.id }, "stripe: a subscription of a customer this server does not know; ignored");
    return "ignored";
  }
  const periodEnd = sub.items?.data?.[0]?.current_period_end;
  const values = {
    accountId,
    status: sub.status,
    currentPeriodEnd: periodEnd ? new Date(periodEnd * 1000) : null,
    cancelAtPeriodEnd: sub.cancel_at_period_end ?? false,
    eventCreated,
    updatedAt: new Date(),
  };
  const applied = await db
    .insert(billingSubscriptions)
    .values({ id: sub.id, ...values })
    .onConflictDoUpdate({ target: billingSubscriptions.id, set: values, setWhere: sql`${billingSubscriptions.eventCreated} <= ${eventCreated}` })
    .returning({ id: billingSubscriptions.id });
  await refreshPlan(db, accountId);
  return applied.length ? "recorded" : "ignored";
}

/**
 * Premium while a subscription is active, trialing or past_due (Stripe is retrying the
 * card); unpaid keeps it PREMIUM_GRACE_DAYS past the paid period's end; canceled,
 * incomplete or paused: free.
 */
export async function refreshPlan(db: Db, accountId: string) {
  const graceStart = new Date(Date.now() - config().PREMIUM_GRACE_DAYS * 86_400_000);
  const [premium] = await db
    .select({ id: billingSubscriptions.id })
    .from(billingSubscriptions)
    .where(
      and(
        eq(billingSubscriptions.accountId, accountId),
        or(
          inArray(billingSubscriptions.status, ["active", "trialing", "past_due"]),
          and(eq(billingSubscriptions.status, "unpaid"), or(isNull(billingSubscriptions.currentPeriodEnd), gt(billingSubscriptions.currentPeriodEnd, graceStart))),
        ),
      ),
    )
    .limit(1);
  const plan = premium ? "premium" : "free";
  await setPlan(db, accountId, plan);
  return plan;
}

/** invoice.paid for a Premium subscription: the month's token allowance, once per invoice. */
export async function grantPremiumAllowance(db: Db, invoice: Stripe.Invoice): Promise<"credited" | "already_credited" | "ignored"> {
  const tokens = config().PREMIUM_MONTHLY_TOKENS;
  const subscription = invoice.parent?.subscription_details?.subscription;
  if (!tokens || !subscription || !invoice.id) return "ignored";
  const accountId = await accountOfCustomer(db, customerId(invoice.customer));
  if (!accountId) return "ignored";
  return db.transaction(async (tx) => {
    const claimed = await tx.insert(billingGrants).values({ stripeObjectId: invoice.id!, accountId }).onConflictDoNothing().returning();
    if (!claimed.length) return "already_credited" as const;
    const entry = await grantTokens(tx, { accountId, amount: tokens, operation: "premium_allowance", reference: invoice.id!, note: `Premium: ${tokens.toLocaleString("en-US")} tokens for the month paid by invoice ${invoice.number ?? invoice.id}` });
    await tx.update(billingGrants).set({ walletTransactionId: entry.id }).where(eq(billingGrants.stripeObjectId, invoice.id!));
    return "credited" as const;
  });
}
