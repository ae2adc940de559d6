import { count, desc, eq } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { mailMessages } from "@/lib/foundation/db/schema";
import { conflict, notFound } from "@/lib/foundation/http/api-error";
import { retryFailedMail } from "./deliver-mail";

type Row = typeof mailMessages.$inferSelect;

function toMailMessage(r: Row) {
  return {
    id: r.id,
    to: r.to,
    subject: r.subject,
    status: r.status,
    attempts: r.attempts,
    next_attempt_at: r.nextAttemptAt?.toISOString() ?? null,
    last_error: r.lastError,
    sent_at: r.sentAt?.toISOString() ?? null,
    account_id: r.accountId,
    created_at: r.createdAt.toISOString(),
  };
}

/** The outbox table newest first, optionally one status (the operator's view and the CLI's `mail`). */
export async function listMail(db: Db, query: { status?: Row["status"] }, page: { limit: number; offset: number }) {
  const where = query.status ? eq(mailMessages.status, query.status) : undefined;
  const [rows, [total]] = await Promise.all([
    db.select().from(mailMessages).where(where).orderBy(desc(mailMessages.createdAt), desc(mailMessages.id)).limit(page.limit).offset(page.offset),
    db.select({ n: count() }).from(mailMessages).where(where),
  ]);
  return { items: rows.map(toMailMessage), total: total?.n ?? 0 };
}

/** POST /v1/operator/mail/retry: one more attempt for a failed message. */
export async function operatorRetryMail(db: Db, id: string) {
  const [row] = await db.select().from(mailMessages).where(eq(mailMessages.id, id));
  if (!row) throw notFound("Message");
  if (!(await retryFailedMail(db, id))) {
    throw conflict("MAIL_NOT_FAILED", `This message is ${row.status}: only a failed message is retried by hand.`);
  }
  const [after] = await db.select().from(mailMessages).where(eq(mailMessages.id, id));
  return toMailMessage(after!);
}
