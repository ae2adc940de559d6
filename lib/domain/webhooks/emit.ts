import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { webhookDeliveries, webhookEndpoints } from "@/lib/foundation/db/schema";
import { newId } from "@/lib/foundation/ids";
import { logger } from "@/lib/foundation/log/logger";
import { jobsMode } from "@/lib/domain/jobs/jobs-mode";
import { startJob } from "@/lib/domain/jobs/start-job";
import { TEST_EVENT_TYPE, type WebhookEventType } from "./events";

export type WebhookEventInput = {
  accountId: string;
  type: WebhookEventType;
  /**
   * The resource as its GET returns it, or a loader run only when an endpoint
   * wants the event. The loader gets the handle to read with (a transaction:
   * with PGlite, reading through the outer handle inside it would wait forever).
   */
  data: Record<string, unknown> | ((db: Db) => Promise<unknown>);
};

/**
 * Queues one delivery per enabled endpoint of the account that wants `type`.
 * Safe inside the caller's transaction (it writes in a savepoint and its runs
 * commit with the caller's work; rolled back, nothing is delivered) and after
 * it. Never throws: a failure is logged and the caller's work goes on (a
 * delivery whose job could not be sent to Inngest is queued again by the hourly sweep).
 */
export async function emitWebhookEvent(db: Db, event: WebhookEventInput): Promise<number> {
  try {
    const endpoints = await db
      .select({ id: webhookEndpoints.id, events: webhookEndpoints.events })
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.accountId, event.accountId), eq(webhookEndpoints.enabled, true)));
    const wanted = endpoints.filter((e) => e.events.includes(event.type));
    if (wanted.length === 0) return 0;
    // A savepoint inside the caller's transaction: whatever fails here is undone without aborting the caller's work.
    await db.transaction(async (tx) => {
      const data = typeof event.data === "function" ? await (event.data as (db: Db) => Promise<unknown>)(tx) : event.data;
      const payload = { type: event.type, timestamp: new Date().toISOString(), data };
      for (const endpoint of wanted) await queueDelivery(tx, { accountId: event.accountId, endpointId: endpoint.id, type: event.type, payload });
    });
    return wanted.length;
  } catch (err) {
    logger().error({ account_id: event.accountId, event_type: event.type, err: (err as Error).message }, "webhook event not queued");
    return 0;
  }
}

/** One delivery row and the job for its first attempt, in `tx`. */
export async function queueDelivery(
  tx: Db,
  input: { accountId: string; endpointId: string; type: WebhookEventType | typeof TEST_EVENT_TYPE; payload: { type: string; timestamp: string; data: unknown } },
): Promise<string> {
  const id = newId("msg");
  await tx.insert(webhookDeliveries).values({ id, accountId: input.accountId, endpointId: input.endpointId, eventType: input.type, payload: input.payload, nextAttemptAt: new Date() });
  await startDeliveryJob(tx, { deliveryId: id, accountId: input.accountId, attempt: 1 });
  return id;
}

/**
 * The job for attempt `attempt` of a delivery (event id per attempt: starting it
 * twice queues it once). With Inngest unreachable the delivery stays pending
 * with its next attempt due, and the hourly sweep queues it again
 * (requeueStalledDeliveries); with the embedded runner the run is a row in `tx`.
 */
export async function startDeliveryJob(tx: Db, input: { deliveryId: string; accountId: string; attempt: number; runAt?: number; eventId?: string }): Promise<void> {
  try {
    await startJob(
      tx,
      { name: "webhooks/delivery.attempt", data: { deliveryId: input.deliveryId, accountId: input.accountId, attempt: input.attempt } },
      { id: input.eventId ?? `${input.deliveryId}-${input.attempt}`, runAt: input.runAt },
    );
  } catch (err) {
    if (jobsMode() !== "inngest") throw err;
    logger().warn({ delivery_id: input.deliveryId, attempt: input.attempt, err: (err as Error).message }, "webhook attempt not queued; the sweep queues it again");
  }
}
