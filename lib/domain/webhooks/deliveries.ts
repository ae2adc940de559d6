import { and, count, desc, eq, inArray, asc } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { webhookAttempts, webhookDeliveries } from "@/lib/foundation/db/schema";
import { conflict, notFound } from "@/lib/foundation/http/api-error";
import { endpointRow } from "./endpoints";
import { queueDelivery, startDeliveryJob } from "./emit";
import { TEST_EVENT_TYPE } from "./events";

type Delivery = typeof webhookDeliveries.$inferSelect;
type Attempt = typeof webhookAttempts.$inferSelect;

function toPublicDelivery(d: Delivery, attempts: Attempt[]) {
  return {
    id: d.id,
    endpoint_id: d.endpointId,
    event_type: d.eventType,
    status: d.status,
    attempts: attempts.map((a) => ({
      attempt: a.attempt,
      status_code: a.statusCode,
      duration_ms: a.durationMs,
      response_snippet: a.responseSnippet,
      error: a.error,
      at: a.createdAt.toISOString(),
    })),
    next_attempt_at: d.nextAttemptAt?.toISOString() ?? null,
    created_at: d.createdAt.toISOString(),
    payload: d.payload,
  };
}

/** Recent deliveries of one endpoint, newest first, each with its attempts. */
export async function listDeliveries(db: Db, accountId: string, endpointId: string, page: { limit: number; offset: number }) {
  await endpointRow(db, accountId, endpointId);
  const where = and(eq(webhookDeliveries.accountId, accountId), eq(webhookDeliveries.endpointId, endpointId));
  const [rows, [total]] = await Promise.all([
    db.select().from(webhookDeliveries).where(where).orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id)).limit(page.limit).offset(page.offset),
    db.select({ n: count() }).from(webhookDeliveries).where(where),
  ]);
  const attempts = rows.length
    ? await db.select().from(webhookAttempts).where(inArray(webhookAttempts.deliveryId, rows.map((r) => r.id))).orderBy(asc(webhookAttempts.attempt))
    : [];
  return { items: rows.map((r) => toPublicDelivery(r, attempts.filter((a) => a.deliveryId === r.id))), total: total?.n ?? 0 };
}

export async function getDelivery(db: Db, accountId: string, endpointId: string, deliveryId: string) {
  const [row] = await db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.accountId, accountId)));
  if (!row) throw notFound("Webhook delivery");
  const attempts = await db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, row.id)).orderBy(asc(webhookAttempts.attempt));
  return toPublicDelivery(row, attempts);
}

/** "Send a test event": a `webhook.test` delivery to this endpoint, through the same job and signing. */
export async function sendTestEvent(db: Db, accountId: string, endpointId: string) {
  const endpoint = await endpointRow(db, accountId, endpointId);
  if (!endpoint.enabled) throw conflict("ENDPOINT_DISABLED", "The endpoint is disabled: enable it before sending a test event.");
  const payload = { type: TEST_EVENT_TYPE, timestamp: new Date().toISOString(), data: { endpoint_id: endpoint.id, message: "A test event from the studio." } };
  const id = await db.transaction((tx) => queueDelivery(tx, { accountId, endpointId: endpoint.id, type: TEST_EVENT_TYPE, payload }));
  return getDelivery(db, accountId, endpointId, id);
}

/** One more attempt of a finished delivery, by hand (same message id and body, so receivers can deduplicate). */
export async function redeliver(db: Db, accountId: string, endpointId: string, deliveryId: string) {
  const endpoint = await endpointRow(db, accountId, endpointId);
  if (!endpoint.enabled) throw conflict("ENDPOINT_DISABLED", "The endpoint is disabled: enable it before redelivering.");
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.accountId, accountId)))
      .for("update");
    if (!row) throw notFound("Webhook delivery");
    if (row.status === "pending") throw conflict("DELIVERY_PENDING", "The delivery is still being attempted.");
    // Attempt numbers go on from the last one: retries follow only while the schedule has entries left.
    await tx.update(webhookDeliveries).set({ status: "pending", nextAttemptAt: new Date(), updatedAt: new Date() }).where(eq(webhookDeliveries.id, row.id));
    await startDeliveryJob(tx, { deliveryId: row.id, accountId, attempt: row.attempts + 1 });
  });
  return getDelivery(db, accountId, endpointId, deliveryId);
}
