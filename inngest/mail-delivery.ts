import { getDb } from "@/lib/foundation/db/client";
import { defineJob } from "@/lib/domain/jobs/define-job";
import { mailDeliveryAttempt } from "@/lib/domain/jobs/events";
import { attemptMail } from "@/lib/domain/mail/deliver-mail";

/**
 * One attempt to send a queued email (lib/domain/mail/deliver-mail.ts). The backoff
 * over about a day is the outbox's own (MAIL_RETRY_SCHEDULE): a failed attempt
 * queues the next as a delayed job, the same on the embedded runner and on
 * Inngest. The job's own retries only cover a crash before the attempt was
 * recorded; a message left `sending` is taken up by the hourly sweep.
 */
export const mailDelivery = defineJob({
  id: "mail-delivery",
  name: "Email delivery attempt",
  event: mailDeliveryAttempt,
  retries: 2,
  timeoutMs: 5 * 60_000,
  concurrency: 4,
  handler: async ({ event, step }) => {
    const outcome = await step.run("attempt", async () => attemptMail(await getDb(), event.data));
    return { outcome };
  },
  // Nothing to undo: the message stays as its attempt left it, and the sweep queues a lost one again.
  onFailure: async () => {},
});
