import { z } from "zod";
import { parseEnv } from "@/lib/foundation/parse-env";
import { retrySchedule } from "@/lib/foundation/retry-schedule";

/**
 * Delivery settings. The default schedule is the one Svix uses (the Standard
 * Webhooks authors): after the first attempt, retries 5 s, 5 min, 30 min, 2 h,
 * 5 h, 10 h and 10 h later, about 27.6 hours in all.
 */
const schema = z.object({
  /** Seconds between attempts, comma-separated: one retry per entry. */
  WEBHOOK_RETRY_SCHEDULE: retrySchedule("5,300,1800,7200,18000,36000,36000"),
  /** One attempt's budget: connect, send, and the receiver's answer. */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(15_000),
  /** Deliveries in a row that ran out of retries before the endpoint is disabled. */
  WEBHOOK_DISABLE_AFTER: z.coerce.number().int().min(1).default(5),
  /** Deliveries (and their attempts) are deleted by the hourly sweep after this many days. */
  WEBHOOK_RETENTION_DAYS: z.coerce.number().positive().default(30),
  /** The balance under which `wallet.low` is sent (once per crossing). */
  WEBHOOK_WALLET_LOW_TOKENS: z.coerce.number().int().min(0).default(50),
});

export type WebhookConfig = z.output<typeof schema>;

export function webhookConfig(env: NodeJS.ProcessEnv = process.env): WebhookConfig {
  return parseEnv(schema, env, "webhooks");
}
