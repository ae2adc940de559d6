import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from "@/lib/foundation/db/schema";
import { newId } from "@/lib/foundation/ids";
import { startDeliveryJob } from "./emit";
import { sendSigned, type SendResult } from "./send";
import { nextRetryIn } from "@/lib/foundation/retry-schedule";
import { webhookConfig } from "./webhook-config";

export type AttemptOutcome = "succeeded" | "retrying" | "failed" | "skipped";

/**
 * Attempt `attempt` of a delivery (one job run each). A 2xx ends it; anything
 * else is logged and, while the schedule lasts, the next attempt is queued for
 * later (a delayed job); after the last one the delivery has failed, and after
 * WEBHOOK_DISABLE_AFTER failed deliveries in a row the endpoint is disabled.
 * A stale or repeated run (the delivery moved on, the endpoint was deleted or
 * disabled) does nothing.
 */
export async function attemptDelivery(db: Db, input: { deliveryId: string; accountId: string; attempt: number }, send = sendSigned): Promise<AttemptOutcome> {
  const cfg = webhookConfig();
  const [row] = await db
    .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(and(eq(webhookDeliveries.id, input.deliveryId), eq(webhookDeliveries.accountId, input.accountId)));
  if (!row) return "skipped";
  const { delivery, endpoint } = row;
  if (delivery.status !== "pending" || delivery.attempts + 1 !== input.attempt) return "skipped";
  if (!endpoint.enabled) {
    await db.update(webhookDeliveries).set({ status: "failed", nextAttemptAt: null, updatedAt: new Date() }).where(eq(webhookDeliveries.id, delivery.id));
    return "failed";
  }

  const result: SendResult = await send({ url: endpoint.url, secret: endpoint.secret, messageId: delivery.id, body: JSON.stringify(delivery.payload), timeoutMs: cfg.WEBHOOK_TIMEOUT_MS });
  const retryIn = nextRetryIn(cfg.WEBHOOK_RETRY_SCHEDULE, input.attempt);
  const outcome: AttemptOutcome = result.ok ? "succeeded" : retryIn === undefined ? "failed" : "retrying";

  await db.transaction(async (tx) => {
    // Conditional on the attempt count: a duplicate run that raced this one records nothing.
    const moved = await tx
      .update(webhookDeliveries)
      .set({
        attempts: input.attempt,
        status: outcome === "retrying" ? "pending" : outcome,
        lastStatusCode: result.statusCode,
        nextAttemptAt: outcome === "retrying" ? new Date(Date.now() + retryIn!) : null,
        updatedAt: new Date(),
      })
      .where(and(eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.attempts, input.attempt - 1)))
      .returning({ id: webhookDeliveries.id });
    if (moved.length === 0) return;
    await tx.insert(webhookAttempts).values({
      id: newId("wha"),
      deliveryId: delivery.id,
      attempt: input.attempt,
      url: endpoint.url,
      statusCode: result.statusCode,
      durationMs: result.durationMs,
      responseSnippet: result.snippet,
      error: result.error,
    });
    if (outcome === "retrying") {
      await startDeliveryJob(tx, { deliveryId: delivery.id, accountId: delivery.accountId, attempt: input.attempt + 1, runAt: Date.now() + retryIn! });
    } else if (outcome === "succeeded") {
      await tx.update(webhookEndpoints).set({ failedDeliveriesInARow: 0 }).where(and(eq(webhookEndpoints.id, endpoint.id), sql`${webhookEndpoints.failedDeliveriesInARow} > 0`));
    } else if (outcome === "failed") {
      const [ep] = await tx
        .update(webhookEndpoints)
        .set({ failedDeliveriesInARow: sql`${webhookEndpoints.failedDeliveriesInARow} + 1` })
        .where(eq(webhookEndpoints.id, endpoint.id))
        .returning({ failures: webhookEndpoints.failedDeliveriesInARow, enabled: webhookEndpoints.enabled });
      if (ep && ep.enabled && ep.failures >= cfg.WEBHOOK_DISABLE_AFTER) {
        await tx
          .update(webhookEndpoints)
          .set({
            enabled: false,
            disabledAt: new Date(),
            disabledReason: `Disabled after ${ep.failures} deliveries in a row failed every attempt (last: ${result.error ?? "no answer"}). Fix the endpoint, then enable it again.`,
            updatedAt: new Date(),
          })
          .where(eq(webhookEndpoints.id, endpoint.id));
      }
    }
  });
  return outcome;
}
