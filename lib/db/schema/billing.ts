import { boolean, index, integer, pgEnum, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { accounts, walletTransactions } from "./accounts";

/**
 * open: created, the customer is on Stripe's page; awaiting_payment: completed with a
 * delayed method (bank debit), not paid yet; paid: credited; failed: the delayed
 * payment failed; expired: abandoned (Stripe expires sessions after 24 h).
 */
export const checkoutStatusEnum = pgEnum("checkout_status", ["open", "awaiting_payment", "paid", "failed", "expired"]);

/**
 * One row per Stripe Checkout Session we create for a token pack. The pack, its tokens
 * and price are fixed here at creation, so a webhook credits what was sold, not what
 * the event or today's configuration says. `wallet_transaction_id` is set in the same
 * transaction as the ledger row: a session is credited once, whatever the events do.
 */
export const billingCheckouts = pgTable(
  "billing_checkouts",
  {
    /** Stripe's Checkout Session id (cs_…). */
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    packId: text("pack_id").notNull(),
    tokens: integer("tokens").notNull(),
    /** In the currency's minor unit (cents). */
    amount: integer("amount").notNull(),
    currency: text("currency").notNull(),
    status: checkoutStatusEnum("status").notNull().default("open"),
    walletTransactionId: text("wallet_transaction_id")
      .unique()
      .references(() => walletTransactions.id, { onDelete: "set null" }),
    /** The PaymentIntent that paid it (pi_…), from the completed session. */
    paymentIntentId: text("payment_intent_id"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    paidAt: timestamp("paid_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [index("billing_checkouts_account_idx").on(t.accountId, t.createdAt)],
);

/**
 * The account's Stripe subscriptions (Premium), as the last applied event left them.
 * `event_created` orders events: one older than what was applied is skipped, so
 * `subscription.updated` arriving before `created` cannot roll the state back.
 */
export const billingSubscriptions = pgTable(
  "billing_subscriptions",
  {
    /** Stripe's subscription id (sub_…). */
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    /** Stripe's status: active, trialing, past_due, unpaid, canceled, incomplete, incomplete_expired, paused. */
    status: text("status").notNull(),
    currentPeriodEnd: timestamp("current_period_end", { withTimezone: true, mode: "date" }),
    cancelAtPeriodEnd: boolean("cancel_at_period_end").notNull().default(false),
    eventCreated: integer("event_created").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [index("billing_subscriptions_account_idx").on(t.accountId)],
);

/** Tokens granted for a Stripe object (a paid invoice's Premium allowance): once per object. */
export const billingGrants = pgTable("billing_grants", {
  /** The Stripe object the grant is for (in_…). */
  stripeObjectId: text("stripe_object_id").primaryKey(),
  accountId: text("account_id")
    .notNull()
    .references(() => accounts.id, { onDelete: "cascade" }),
  walletTransactionId: text("wallet_transaction_id").references(() => walletTransactions.id, { onDelete: "set null" }),
  createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
});

export const reversalKindEnum = pgEnum("reversal_kind", ["refund", "dispute"]);

/**
 * Tokens taken back for a refunded or disputed token-pack payment: one row per Stripe
 * refund state (`refund:<charge>:<amount refunded so far>`) or dispute (dp_…), so a
 * repeated event finds its row and takes nothing twice. `tokens` left the wallet;
 * `shortfall` had already been spent and put the account on hold.
 */
export const billingReversals = pgTable(
  "billing_reversals",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    checkoutId: text("checkout_id")
      .notNull()
      .references(() => billingCheckouts.id, { onDelete: "cascade" }),
    kind: reversalKindEnum("kind").notNull(),
    tokens: integer("tokens").notNull(),
    shortfall: integer("shortfall").notNull(),
    walletTransactionId: text("wallet_transaction_id").references(() => walletTransactions.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [index("billing_reversals_checkout_idx").on(t.checkoutId)],
);
