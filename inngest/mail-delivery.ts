import { mailDeliveryAttempt } from "@/lib/domain/jobs/events";
import { attemptMail } from "@/lib/domain/mail/deliver-mail";
import { deliveryAttemptJob } from "./delivery-attempt";

/**
 * One attempt to send a queued email (lib/domain/mail/deliver-mail.ts). The backoff
 * over about a day is the outbox's own (MAIL_RETRY_SCHEDULE); a message left
 * `sending` is taken up by the hourly sweep.
 */
export const mailDelivery = deliveryAttemptJob({
  id: "mail-delivery",
  name: "Email delivery attempt",
  event: mailDeliveryAttempt,
  attempt: (db, data) => attemptMail(db, data),
});
