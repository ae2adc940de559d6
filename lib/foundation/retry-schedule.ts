import { z } from "zod";

/**
 * A retry schedule read from the environment: seconds between attempts,
 * comma-separated, one retry per entry; parsed to milliseconds. The outbox
 * (MAIL_RETRY_SCHEDULE) and webhook deliveries (WEBHOOK_RETRY_SCHEDULE) back off
 * by it.
 */
export function retrySchedule(defaultSeconds: string) {
  return z
    .string()
    .default(defaultSeconds)
    .transform((s, ctx) => {
      const parts = s.split(",").map((p) => Number(p.trim()));
      if (parts.some((n) => !Number.isFinite(n) || n < 0)) ctx.addIssue({ code: "custom", message: "a comma-separated list of seconds" });
      return parts.map((n) => Math.round(n * 1000));
    });
}

/**
 * After attempt `attempt` (1 for the first) failed: how long until the next, or
 * undefined when the schedule is spent and the attempt was the last.
 */
export function nextRetryIn(scheduleMs: readonly number[], attempt: number): number | undefined {
  return scheduleMs[attempt - 1];
}
