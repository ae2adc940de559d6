import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/**
 * Idempotency-Key records (lib/http/idempotency): one per (scope, key), where the scope
 * is the account id (or "operator"). `running` while the first request works,
 * holding a lease (`owner`, `locked_until`); `completed` once its answer is stored
 * for replay. `debit_id` is written inside the debit's own transaction, so a key
 * that has charged is known even when the process died before the answer.
 * Deleted by the retention sweep once `expires_at` (24 h after first use) passes.
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    /** `idk_...` */
    id: text("id").primaryKey(),
    scope: text("scope").notNull(),
    key: text("key").notNull(),
    /** sha256 of method, path and body bytes. */
    fingerprint: text("fingerprint").notNull(),
    method: text("method").notNull(),
    path: text("path").notNull(),
    /** running | completed */
    status: text("status").$type<"running" | "completed">().notNull().default("running"),
    /** The attempt holding the key (a random id), and until when. */
    owner: text("owner").notNull(),
    lockedUntil: ts("locked_until").notNull(),
    /** The first ledger debit made under this key (`wtx_...`). */
    debitId: text("debit_id"),
    responseStatus: integer("response_status"),
    responseHeaders: jsonb("response_headers").$type<Record<string, string>>(),
    /** The answer's body, base64. */
    responseBody: text("response_body"),
    createdAt: ts("created_at").notNull().defaultNow(),
    completedAt: ts("completed_at"),
    expiresAt: ts("expires_at").notNull(),
  },
  (t) => [uniqueIndex("idempotency_keys_scope_key").on(t.scope, t.key), index("idempotency_keys_expires_idx").on(t.expiresAt)],
);
