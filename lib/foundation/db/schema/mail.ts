import { index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/**
 * Every email the app sends, written before it is sent (lib/domain/mail/queue-mail.ts),
 * in the transaction of what causes it where there is one. `pending` until an
 * attempt hands it to the SMTP server (`sent`) or the retry schedule runs out
 * (`failed`); `sending` while one attempt holds it. `idempotency_key` is unique:
 * queueing the same message again (a retried request, a repeated job step) adds
 * nothing, and the key is the Message-ID the receiver sees on every attempt.
 * No foreign key to accounts: the notice that a studio was deleted outlives it.
 */
export const mailMessages = pgTable(
  "mail_messages",
  {
    /** `mail_...` */
    id: text("id").primaryKey(),
    idempotencyKey: text("idempotency_key").notNull().unique(),
    /** The studio or person it concerns, for the operator's eyes (no cascade). */
    accountId: text("account_id"),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    html: text("html").notNull(),
    status: text("status").$type<"pending" | "sending" | "sent" | "failed">().notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: ts("next_attempt_at"),
    lastError: text("last_error"),
    sentAt: ts("sent_at"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [index("mail_messages_status_idx").on(t.status, t.nextAttemptAt), index("mail_messages_created_idx").on(t.createdAt)],
);
