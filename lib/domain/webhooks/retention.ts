import { and, eq, lt } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { webhookDeliveries } from "@/lib/foundation/db/schema";
import { logger } from "@/lib/foundation/log/logger";
import { startDeliveryJob } from "./emit";

/** Deliveries created before `before` go, with their attempts (ON DELETE CASCADE). Pending ones too: past the retention no retry is due. */
export async function pruneWebhookDeliveries(db: Db, before: Date): Promise<number> {
  const rows = await db.delete(webhookDeliveries).where(lt(webhookDeliveries.createdAt, before)).returning({ id: webhookDeliveries.id });
  return rows.length;
}

/**
 * A pending delivery whose next attempt is more than `graceMs` overdue lost its
 * job (the queue was unreachable when it was emitted, or the job gave up on a
 * database error): queue that attempt again. The attempt's conditional update
 * keeps a late original run from recording twice.
 */
export async function requeueStalledDeliveries(db: Db, now = new Date(), graceMs = 15 * 60_000, limit = 500): Promise<number> {
  const stalled = await db
    .select({ id: webhookDeliveries.id, accountId: webhookDeliveries.accountId, attempts: webhookDeliveries.attempts })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.status, "pending"), lt(webhookDeliveries.nextAttemptAt, new Date(now.getTime() - graceMs))))
    .limit(limit);
  for (const d of stalled) {
    try {
      await startDeliveryJob(db, { deliveryId: d.id, accountId: d.accountId, attempt: d.attempts + 1, eventId: `${d.id}-${d.attempts + 1}-requeued-${now.getTime()}` });
    } catch (err) {
      logger().warn({ delivery_id: d.id, err: (err as Error).message }, "webhook delivery not requeued");
    }
  }
  return stalled.length;
}
