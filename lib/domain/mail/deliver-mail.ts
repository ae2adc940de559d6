import { and, eq, inArray, lt, or, sql } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { mailMessages } from "@/lib/foundation/db/schema";
import { logger } from "@/lib/foundation/log/logger";
import { jobsMode } from "@/lib/domain/jobs/jobs-mode";
import { startJob } from "@/lib/domain/jobs/start-job";
import { nextRetryIn } from "@/lib/foundation/retry-schedule";
import { mailConfig } from "./mail-config";
import { transmit } from "./transport";

export type MailAttemptOutcome = "sent" | "retrying" | "failed" | "skipped";

/**
 * Attempt `attempt` of a queued message: the first is made by the process that
 * queued it (sendQueuedMail), the later ones by jobs. Claiming the row
 * (`pending` with `attempt - 1` attempts made, to `sending`) is what keeps two
 * runs of the same attempt, or a late job beside the first attempt, from both
 * sending: a message already sent is never handed over again. A failure queues
 * the next attempt as a delayed job while the schedule lasts, then the message
 * is `failed`.
 */
export async function attemptMail(db: Db, input: { messageId: string; attempt: number }, send = transmit): Promise<MailAttemptOutcome> {
  const [claimed] = await db
    .update(mailMessages)
    .set({ status: "sending", attempts: input.attempt, updatedAt: new Date() })
    .where(and(eq(mailMessages.id, input.messageId), eq(mailMessages.status, "pending"), eq(mailMessages.attempts, input.attempt - 1)))
    .returning();
  if (!claimed) return "skipped";
  try {
    await send({ to: claimed.to, subject: claimed.subject, text: claimed.text, html: claimed.html }, claimed.id);
  } catch (err) {
    const error = (err as Error).message.slice(0, 500);
    const retryIn = nextRetryIn(mailConfig().MAIL_RETRY_SCHEDULE, input.attempt);
    const outcome = retryIn === undefined ? "failed" : "retrying";
    await db.transaction(async (tx) => {
      await tx
        .update(mailMessages)
        .set({ status: outcome === "failed" ? "failed" : "pending", lastError: error, nextAttemptAt: outcome === "failed" ? null : new Date(Date.now() + retryIn!), updatedAt: new Date() })
        .where(and(eq(mailMessages.id, claimed.id), eq(mailMessages.attempts, input.attempt)));
      if (retryIn !== undefined) await startMailJob(tx, { messageId: claimed.id, attempt: input.attempt + 1, runAt: Date.now() + retryIn });
    });
    const log = { mail_id: claimed.id, subject: claimed.subject, attempt: input.attempt, err: error };
    if (outcome === "failed") logger().error(log, "mail failed: no attempt left (listed for the operator)");
    else logger().warn({ ...log, retry_in_s: Math.round(retryIn! / 1000) }, "mail not sent yet: it is retried later");
    return outcome;
  }
  await db
    .update(mailMessages)
    .set({ status: "sent", sentAt: new Date(), nextAttemptAt: null, lastError: null, updatedAt: new Date() })
    .where(and(eq(mailMessages.id, claimed.id), eq(mailMessages.attempts, input.attempt)));
  return "sent";
}

/**
 * The job for attempt `attempt` (event id per attempt: starting it twice queues
 * it once). With Inngest unreachable the message stays pending with its next
 * attempt due, and the hourly sweep queues it again (requeueStalledMail).
 */
export async function startMailJob(tx: Db, input: { messageId: string; attempt: number; runAt?: number; eventId?: string }): Promise<void> {
  try {
    await startJob(tx, { name: "mail/message.attempt", data: { messageId: input.messageId, attempt: input.attempt } }, { id: input.eventId ?? `${input.messageId}-${input.attempt}`, runAt: input.runAt });
  } catch (err) {
    if (jobsMode() !== "inngest") throw err;
    logger().warn({ mail_id: input.messageId, attempt: input.attempt, err: (err as Error).message }, "mail attempt not queued; the sweep queues it again");
  }
}

/**
 * Messages whose next attempt is more than `graceMs` overdue lost their job (the
 * queue was unreachable, or the process died in the first attempt): queue that
 * attempt again. A message left `sending` that long belongs to a process that
 * died while sending: that attempt counts as failed, and the next is queued
 * (the receiver may see it twice, with one Message-ID, if the server had taken
 * it: the one case no outbox can rule out).
 */
export async function requeueStalledMail(db: Db, now = new Date(), graceMs = 15 * 60_000, limit = 500): Promise<number> {
  const before = new Date(now.getTime() - graceMs);
  const stalled = await db
    .select({ id: mailMessages.id, attempts: mailMessages.attempts, status: mailMessages.status })
    .from(mailMessages)
    .where(or(and(eq(mailMessages.status, "pending"), lt(mailMessages.nextAttemptAt, before)), and(eq(mailMessages.status, "sending"), lt(mailMessages.updatedAt, before))))
    .limit(limit);
  for (const m of stalled) {
    try {
      await db.transaction(async (tx) => {
        if (m.status === "sending") {
          const [moved] = await tx
            .update(mailMessages)
            .set({ status: "pending", lastError: "the process sending it stopped", nextAttemptAt: now, updatedAt: now })
            .where(and(eq(mailMessages.id, m.id), eq(mailMessages.status, "sending"), eq(mailMessages.attempts, m.attempts)))
            .returning({ id: mailMessages.id });
          if (!moved) return;
        }
        await startMailJob(tx, { messageId: m.id, attempt: m.attempts + 1, eventId: `${m.id}-${m.attempts + 1}-requeued-${now.getTime()}` });
      });
    } catch (err) {
      logger().warn({ mail_id: m.id, err: (err as Error).message }, "mail not requeued");
    }
  }
  return stalled.length;
}

/** Sent and failed messages created before `before` go (pending ones stay: they are still due). */
export async function pruneMail(db: Db, before: Date): Promise<number> {
  const rows = await db
    .delete(mailMessages)
    .where(and(inArray(mailMessages.status, ["sent", "failed"]), lt(mailMessages.createdAt, before)))
    .returning({ id: mailMessages.id });
  return rows.length;
}

/** Operator: a failed message gets one more attempt, now. Returns false when it is not failed. */
export async function retryFailedMail(db: Db, messageId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(mailMessages)
      .set({ status: "pending", nextAttemptAt: new Date(), updatedAt: new Date() })
      .where(and(eq(mailMessages.id, messageId), eq(mailMessages.status, "failed")))
      .returning({ attempts: mailMessages.attempts });
    if (!row) return false;
    await startMailJob(tx, { messageId, attempt: row.attempts + 1, eventId: `${messageId}-${row.attempts + 1}-retry-${Date.now()}` });
    return true;
  });
}

/** Counts by status, for the operator's overview. */
export async function mailCounts(db: Db): Promise<Record<string, number>> {
  const rows = await db.select({ status: mailMessages.status, n: sql<number>`count(*)::int` }).from(mailMessages).groupBy(mailMessages.status);
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}
