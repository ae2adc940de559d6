import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

export const planEnum = pgEnum("plan", ["free", "premium"]);
export const ledgerTypeEnum = pgEnum("ledger_type", ["grant", "debit", "refund", "purchase", "reversal"]);

const createdAt = () => timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow();

export const accounts = pgTable(
  "accounts",
  {
    id: text("id").primaryKey(),
    /** Stored lower-cased; the unique index is on this column. */
    email: text("email").notNull(),
    name: text("name").notNull(),
    passwordHash: text("password_hash").notNull(),
    plan: planEnum("plan").notNull().default("free"),
    /** The account's one Stripe customer, created at its first checkout and reused after. */
    stripeCustomerId: text("stripe_customer_id").unique(),
    /**
     * Set when a refunded or disputed card payment's tokens were already spent: billed
     * operations answer 402 ACCOUNT_ON_HOLD until an operator releases the account.
     */
    holdReason: text("hold_reason"),
    heldAt: timestamp("held_at", { withTimezone: true, mode: "date" }),
    /** When the address was first confirmed (the sign-up bonus is granted then, once). Null: not yet. */
    emailVerifiedAt: timestamp("email_verified_at", { withTimezone: true, mode: "date" }),
    /**
     * Bumped when the password changes (reset or change): access tokens and session
     * cookies carry the version they were issued under and are refused once it moved.
     */
    credentialsVersion: integer("credentials_version").notNull().default(0),
    /**
     * The person's name as a member of other studios (the team list, the ledger's
     * "By", the audit log); null: `name`. Kept apart because `name` is also the
     * name of the login's own studio, which an admin there may rename.
     */
    personName: text("person_name"),
    /**
     * Two-factor sign-in (TOTP, lib/domain/identity/totp.ts): the authenticator secret,
     * encrypted with a key derived from the server secret; `pending` while the
     * person has not yet typed a first code from the app.
     */
    twoFactorSecret: text("two_factor_secret"),
    twoFactorPendingSecret: text("two_factor_pending_secret"),
    twoFactorEnabledAt: timestamp("two_factor_enabled_at", { withTimezone: true, mode: "date" }),
    /** The last 30-second step a code was accepted for: the same code is never accepted twice. */
    twoFactorLastStep: bigint("two_factor_last_step", { mode: "number" }),
    /** Studio setting (owner): owners and admins must have two-factor on to act for the studio. */
    requireTwoFactor: boolean("require_two_factor").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("accounts_email_key").on(t.email)],
);

export const accountTokenPurposeEnum = pgEnum("account_token_purpose", ["password_reset", "email_verification"]);

/**
 * Single-use links sent by email (password reset, address verification). Only the
 * SHA-256 of the token is kept; `email` is the address the link was sent to (for a
 * verification, the address it confirms: the new one when the address changes).
 */
export const accountTokens = pgTable(
  "account_tokens",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    purpose: accountTokenPurposeEnum("purpose").notNull(),
    tokenHash: text("token_hash").notNull(),
    email: text("email").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("account_tokens_hash_key").on(t.tokenHash), index("account_tokens_account_idx").on(t.accountId, t.purpose)],
);

/** One row per account. The CHECK makes an overdraw impossible even if code is wrong. */
export const wallets = pgTable(
  "wallets",
  {
    accountId: text("account_id")
      .primaryKey()
      .references(() => accounts.id, { onDelete: "cascade" }),
    balance: integer("balance").notNull().default(0),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [check("wallets_balance_non_negative", sql`${t.balance} >= 0`)],
);

/**
 * The ledger: every change of a balance is one row. `amount` is signed
 * (debits negative), so the sum of an account's rows equals its balance.
 */
export const walletTransactions = pgTable(
  "wallet_transactions",
  {
    id: text("id").primaryKey(),
    /** Insertion order, for stable newest-first pagination. */
    seq: bigint("seq", { mode: "number" }).generatedAlwaysAsIdentity(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    type: ledgerTypeEnum("type").notNull(),
    amount: integer("amount").notNull(),
    balanceAfter: integer("balance_after").notNull(),
    /** What the tokens paid for, e.g. "bg_remove", "signup_bonus", "operator_grant". */
    operation: text("operation").notNull(),
    /** The job or record id the entry pays for (a refund repeats its debit's). */
    reference: text("reference"),
    /** Why: a grant's reason, a refund's cause. */
    note: text("note"),
    /** For refunds: the debit being refunded. Unique, so a debit is refunded at most once. */
    refundOf: text("refund_of"),
    /** Who spent it (debits made in a request): the member's login, and the API key when one was used. */
    actorUserId: text("actor_user_id"),
    apiKeyId: text("api_key_id"),
    createdAt: createdAt(),
  },
  (t) => [
    index("wallet_transactions_account_seq_idx").on(t.accountId, t.seq),
    index("wallet_transactions_actor_idx").on(t.accountId, t.actorUserId),
    uniqueIndex("wallet_transactions_refund_of_key").on(t.refundOf),
    check(
      "wallet_transactions_sign",
      // ::text: the migration that adds 'reversal' to the enum may not use the new value in its own transaction.
      sql`(${t.type}::text IN ('debit', 'reversal') AND ${t.amount} < 0) OR (${t.type}::text NOT IN ('debit', 'reversal') AND ${t.amount} > 0)`,
    ),
  ],
);

export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** The first characters of the key, shown in lists so people can tell keys apart. */
    prefix: text("prefix").notNull(),
    /** SHA-256 of the whole key: keys are 256-bit random, so a slow hash adds nothing. */
    keyHash: text("key_hash").notNull(),
    /** The member who created the key (the key stays the studio's when they leave). */
    createdBy: text("created_by"),
    createdAt: createdAt(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true, mode: "date" }),
    revokedAt: timestamp("revoked_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [uniqueIndex("api_keys_key_hash_key").on(t.keyHash), index("api_keys_account_idx").on(t.accountId)],
);

/** Uploaded files (POST /v1/uploads), so they can be listed and cleaned up per account. */
export const uploads = pgTable(
  "uploads",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    storageKey: text("storage_key").notNull(),
    contentType: text("content_type").notNull(),
    size: integer("size").notNull(),
    originalName: text("original_name"),
    createdAt: createdAt(),
  },
  (t) => [index("uploads_account_idx").on(t.accountId)],
);

/** Shared rate-limit counters when RATE_LIMIT_STORE=postgres (rate-limiter-flexible's Drizzle store). */
export const rateLimits = pgTable("rate_limits", {
  key: text("key").primaryKey(),
  points: integer("points").notNull().default(0),
  expire: timestamp("expire", { withTimezone: true, mode: "date" }),
});
