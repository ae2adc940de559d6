import { boolean, index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/**
 * Webhook endpoints (lib/domain/webhooks): where an account wants its events POSTed.
 * `secret` is the Standard Webhooks signing secret (`whsec_...`), kept because
 * every delivery is signed with it; it is shown to the account only at creation
 * and rotation. `disabled_at` is set after `failed_deliveries_in_a_row` reaches
 * the limit (the studio page says so); re-enabling resets the count.
 */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    /** `whe_...` */
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    description: text("description"),
    events: jsonb("events").$type<string[]>().notNull(),
    secret: text("secret").notNull(),
    enabled: boolean("enabled").notNull().default(true),
    disabledAt: ts("disabled_at"),
    disabledReason: text("disabled_reason"),
    failedDeliveriesInARow: integer("failed_deliveries_in_a_row").notNull().default(0),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [index("webhook_endpoints_account_idx").on(t.accountId, t.createdAt)],
);

/**
 * One event for one endpoint (the Standard Webhooks message: its id is the
 * `webhook-id` header, the same on every attempt so receivers can deduplicate).
 * `pending` until an attempt gets a 2xx (`succeeded`) or the retry schedule
 * runs out (`failed`). Swept by the retention sweep after WEBHOOK_RETENTION_DAYS.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    /** `msg_...` */
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    endpointId: text("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    eventType: text("event_type").notNull(),
    /** The signed body: `{ type, timestamp, data }`. */
    payload: jsonb("payload").$type<{ type: string; timestamp: string; data: unknown }>().notNull(),
    status: text("status").$type<"pending" | "succeeded" | "failed">().notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: ts("next_attempt_at"),
    lastStatusCode: integer("last_status_code"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    index("webhook_deliveries_account_idx").on(t.accountId, t.createdAt),
    index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.createdAt),
    index("webhook_deliveries_created_idx").on(t.createdAt),
  ],
);

/** Every HTTP attempt of a delivery: what the receiver answered (or why nothing came), and how long it took. */
export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    /** `wha_...` */
    id: text("id").primaryKey(),
    deliveryId: text("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    attempt: integer("attempt").notNull(),
    url: text("url").notNull(),
    statusCode: integer("status_code"),
    durationMs: integer("duration_ms").notNull(),
    /** The first characters of the response body. */
    responseSnippet: text("response_snippet"),
    /** Why no answer came (timeout, refused address, connection error). */
    error: text("error"),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("webhook_attempts_delivery_idx").on(t.deliveryId, t.attempt)],
);
