import { z } from "zod";
import { parseEnv } from "@/lib/foundation/parse-env";
import { retrySchedule } from "@/lib/foundation/retry-schedule";

/**
 * The outbox's retry schedule (lib/domain/mail/deliver-mail.ts). After the first
 * attempt, retries 1 min, 5 min, 15 min, 1 h, 3 h, 6 h and 12 h later (about
 * 22.5 hours in all): a mail server down for a deploy or a night still gets
 * every message, and one that never comes back leaves the message `failed`
 * for the operator to see.
 */
const schema = z.object({
  /** Seconds between attempts, comma-separated: one retry per entry. */
  MAIL_RETRY_SCHEDULE: retrySchedule("60,300,900,3600,10800,21600,43200"),
  /**
   * The first attempt is made at once, by the process that queued the message;
   * this long after, a job makes it instead if that process died first.
   */
  MAIL_FIRST_JOB_DELAY_SECONDS: z.coerce.number().min(0).default(60),
  /** Messages (sent or failed) are deleted by the hourly sweep after this many days. */
  MAIL_RETENTION_DAYS: z.coerce.number().positive().default(30),
});

export type MailConfig = z.output<typeof schema>;

export function mailConfig(env: NodeJS.ProcessEnv = process.env): MailConfig {
  return parseEnv(schema, env, "mail");
}
