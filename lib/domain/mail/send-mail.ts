import { eq } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { mailMessages } from "@/lib/foundation/db/schema";
import { newId } from "@/lib/foundation/ids";
import { logger } from "@/lib/foundation/log/logger";
import type { MailMessage } from "./message";
import { mailConfig } from "./mail-config";
import { attemptMail, startMailJob } from "./deliver-mail";

export { closeMailTransport } from "./transport";

/** `sent`: the mail server took it. `pending`: it is in the outbox and will be sent (retried with backoff). */
export type MailStatus = "sent" | "pending";
export type QueuedMail = { id: string; queued: boolean };

/**
 * Writes one message to the outbox table, with `tx` (the transaction of what
 * causes it, so the message exists exactly when that change does), and queues
 * a delayed job that sends it if nobody else did first. `key` makes it
 * idempotent: a message with the same key is not queued twice (`queued: false`).
 * Call sendQueuedMail with the id after the transaction commits.
 */
export async function queueMail(tx: Db, message: MailMessage, opts: { key?: string; accountId?: string } = {}): Promise<QueuedMail> {
  const id = newId("mail");
  const firstJobAt = Date.now() + mailConfig().MAIL_FIRST_JOB_DELAY_SECONDS * 1000;
  const [row] = await tx
    .insert(mailMessages)
    .values({ id, idempotencyKey: opts.key ?? id, accountId: opts.accountId ?? null, ...message, nextAttemptAt: new Date(firstJobAt) })
    .onConflictDoNothing({ target: mailMessages.idempotencyKey })
    .returning({ id: mailMessages.id });
  if (!row) {
    const [existing] = await tx.select({ id: mailMessages.id }).from(mailMessages).where(eq(mailMessages.idempotencyKey, opts.key!));
    return { id: existing!.id, queued: false };
  }
  await startMailJob(tx, { messageId: id, attempt: 1, runAt: firstJobAt });
  return { id, queued: true };
}

/**
 * The first attempt, made at once after the queueing transaction committed, so
 * a reachable mail server gets the message while the person waits for it. A
 * failure is not an error: the message stays pending and jobs retry it.
 */
export async function sendQueuedMail(db: Db, mail: QueuedMail | string): Promise<MailStatus> {
  const id = typeof mail === "string" ? mail : mail.id;
  try {
    const outcome = await attemptMail(db, { messageId: id, attempt: 1 });
    if (outcome === "sent") return "sent";
    if (outcome === "skipped") return (await mailStatus(db, id)) === "sent" ? "sent" : "pending";
    return "pending";
  } catch (err) {
    // A database error here leaves the row pending; the delayed job or the sweep picks it up.
    logger().warn({ mail_id: id, err: (err as Error).message }, "first mail attempt failed before sending; a job sends it");
    return "pending";
  }
}

/**
 * Queues one message and makes its first attempt: the usual way to send when
 * no transaction is at hand. Never throws because the mail server is down (the
 * message is then pending and retried); says whether it already went.
 */
export async function sendMail(db: Db, message: MailMessage, opts: { key?: string; accountId?: string } = {}): Promise<MailStatus> {
  const queued = await db.transaction((tx) => queueMail(tx, message, opts));
  if (!queued.queued) return mailStatus(db, queued.id).then((s) => (s === "sent" ? "sent" : "pending"));
  return sendQueuedMail(db, queued);
}

async function mailStatus(db: Db, id: string): Promise<string | undefined> {
  const [row] = await db.select({ status: mailMessages.status }).from(mailMessages).where(eq(mailMessages.id, id));
  return row?.status;
}

