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

/**
 * Auto top-up (opt-in): when a debit leaves the balance under `threshold`, the saved
 * card pays for `pack_id` off-session. `in_flight_id` is the one attempt under way:
 * claimed by a conditional UPDATE in the debit's transaction, so however many
 * debits cross the threshold at once, one charge is made. A declined card (or one
 * that needs its holder to authenticate) turns auto top-up off and says why.
 */
export const billingAutoTopUps = pgTable("billing_auto_top_ups", {
  accountId: text("account_id")
    .primaryKey()
    .references(() => accounts.id, { onDelete: "cascade" }),
  enabled: boolean("enabled").notNull().default(false),
  threshold: integer("threshold").notNull().default(0),
  packId: text("pack_id"),
  /** The card saved at a checkout (pm_…), and how to show it ("visa •••• 4242"). */
  paymentMethodId: text("payment_method_id"),
  cardLabel: text("card_label"),
  inFlightId: text("in_flight_id"),
  inFlightSince: timestamp("in_flight_since", { withTimezone: true, mode: "date" }),
  lastFailure: text("last_failure"),
  lastFailedAt: timestamp("last_failed_at", { withTimezone: true, mode: "date" }),
  updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
});

export const autoTopUpStatusEnum = pgEnum("auto_top_up_status", ["pending", "charging", "succeeded", "failed"]);

/** One charge of the saved card; credited once, from Stripe's payment_intent.succeeded webhook. */
export const billingAutoTopUpAttempts = pgTable(
  "billing_auto_top_up_attempts",
  {
    /** atu_…: also the Stripe idempotency key of the PaymentIntent. */
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    packId: text("pack_id").notNull(),
    /** Balance when the threshold was crossed. */
    balanceAtTrigger: integer("balance_at_trigger").notNull(),
    tokens: integer("tokens"),
    amount: integer("amount"),
    currency: text("currency"),
    paymentIntentId: text("payment_intent_id").unique(),
    status: autoTopUpStatusEnum("status").notNull().default("pending"),
    failure: text("failure"),
    walletTransactionId: text("wallet_transaction_id")
      .unique()
      .references(() => walletTransactions.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [index("billing_auto_top_up_attempts_account_idx").on(t.accountId, t.createdAt)],
);
