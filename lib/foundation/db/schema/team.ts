import { bigint, index, jsonb, pgEnum, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";

/**
 * A studio is an account (wallet, agencies, keys, webhooks stay the account's);
 * people sign in with their own login (also an account row, their personal studio)
 * and act for a studio as one of its members. Every account has an `owner` row for
 * its own login, so a single-user account is a studio with one owner.
 */
export const memberRoleEnum = pgEnum("member_role", ["owner", "admin", "photographer", "viewer"]);

const createdAt = () => timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow();

export const memberships = pgTable(
  "memberships",
  {
    id: text("id").primaryKey(),
    /** The studio. */
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    /** The person's login. */
    userId: text("user_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    role: memberRoleEnum("role").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("memberships_account_user_key").on(t.accountId, t.userId), index("memberships_user_idx").on(t.userId)],
);

/** An emailed link that makes its receiver a member (valid 7 days; only the token's SHA-256 is kept). */
export const invitations = pgTable(
  "invitations",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    role: memberRoleEnum("role").notNull(),
    tokenHash: text("token_hash").notNull(),
    /** The login that invited (kept when that person later leaves). */
    invitedBy: text("invited_by").references(() => accounts.id, { onDelete: "set null" }),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    acceptedAt: timestamp("accepted_at", { withTimezone: true, mode: "date" }),
    revokedAt: timestamp("revoked_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("invitations_token_hash_key").on(t.tokenHash), index("invitations_account_idx").on(t.accountId)],
);

/**
 * Who did what in a studio. The actor's name is copied in, so the log still reads
 * after the person leaves; rows are never updated.
 */
export const auditEvents = pgTable(
  "audit_events",
  {
    id: text("id").primaryKey(),
    seq: bigint("seq", { mode: "number" }).generatedAlwaysAsIdentity(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    /** `member`, `api_key`, `operator` or `system`. */
    actorType: text("actor_type").notNull(),
    actorId: text("actor_id"),
    actorName: text("actor_name"),
    /** e.g. `member.role_changed`, `api_key.created`, `auth.sign_in_failed`. */
    action: text("action").notNull(),
    /** The id of what was acted on (a member, key, agency...), when there is one. */
    target: text("target"),
    data: jsonb("data").$type<Record<string, unknown>>().notNull().default({}),
    ip: text("ip"),
    createdAt: createdAt(),
  },
  (t) => [index("audit_events_account_seq_idx").on(t.accountId, t.seq)],
);

/**
 * A signed-in session of a login: a studio browser (the next-auth cookie) or an
 * access token from POST /v1/auth/token. Tokens carry its id (`sid`); ending it
 * refuses them on their next request, on every instance.
 */
export const loginSessions = pgTable(
  "login_sessions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    /** `studio` (browser cookie) or `api` (access token). */
    kind: text("kind").$type<"studio" | "api">().notNull(),
    userAgent: text("user_agent"),
    ip: text("ip"),
    createdAt: createdAt(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    endedAt: timestamp("ended_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [index("login_sessions_user_idx").on(t.userId, t.lastSeenAt)],
);

/**
 * One-time codes that stand in for the authenticator app when it is lost. Only a
 * keyed hash is kept (they are shown once); each works once; a new set replaces the old.
 */
export const recoveryCodes = pgTable(
  "recovery_codes",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    usedAt: timestamp("used_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("recovery_codes_hash_key").on(t.codeHash), index("recovery_codes_user_idx").on(t.userId)],
);
