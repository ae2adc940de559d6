import { index, integer, pgEnum, pgTable, text, timestamp } from "drizzle-orm/pg-core";
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
