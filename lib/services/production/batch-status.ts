import { and, eq, inArray } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "@/lib/foundation/db/types";
import { labBatches, orders, printFiles } from "@/lib/foundation/db/schema";
import { ApiError, notFound } from "@/lib/foundation/http/api-error";
import { shipPartOfOrder, updateOrderStatus } from "@/lib/services/orders/studio-orders";
import type { updateOrderBody } from "@/lib/services/orders/schemas";
import { collectPrintFiles } from "./collect-print-files";
import { sizeName } from "./present-batch";
import { getBatch, requireBatch } from "./batches";
import type { BatchStatusBody } from "./schemas";

const FROM = { sent: "ready", printed: "sent", shipped: "printed" } as const;
const STAMP = { sent: "sentAt", printed: "printedAt", shipped: "shippedAt" } as const;

/**
 * Moves a batch on (ready → sent → printed → shipped) and its orders with it:
 * sent puts every paid order of the batch in production; shipped records each order's
 * parcel (a parcel to a home needs its tracking number, also when it is only part of
 * the order) and ships those whose print files have all shipped now (the orders' own
 * rules; the parent gets the orders' shipped e-mail with every parcel). An order with
 * a file the lab did not get (held, or fixed late and waiting for the next batch)
 * stays in production with this parcel kept, and the parent is told what shipped and
 * what follows: the order page shows which file waits, and the batch that takes it
 * ships the order. An order already further along is left.
 */
export async function moveBatch(db: Db, accountId: string, id: string, body: BatchStatusBody) {
  const batch = await requireBatch(db, accountId, id);
  if (batch.status !== FROM[body.status]) {
    throw new ApiError(409, "INVALID_BATCH_STATUS", `A batch that is ${batch.status} cannot become ${body.status}.`, { status: batch.status, allowed: Object.entries(FROM).filter(([, f]) => f === batch.status).map(([t]) => t) });
  }
  const rows = await db
    .selectDistinct({ id: orders.id, status: orders.status, type: orders.shipping })
    .from(printFiles)
    .innerJoin(orders, eq(orders.id, printFiles.orderId))
    .where(and(eq(printFiles.accountId, accountId), eq(printFiles.batchId, id), eq(printFiles.status, "rendered")));
  const waiting = body.status === "shipped" ? await waitingItems(db, accountId, id, rows.map((o) => o.id)) : new Map<string, Set<string>>();
  const parcels = rows.filter((o) => o.status === "paid" || o.status === "in_production");
  if (body.status === "shipped") {
    const missing = parcels.filter((o) => o.type.type === "home" && !body.tracking?.[o.id]);
    if (missing.length) {
      const fields = missing.map((o) => ({ field: `tracking.${o.id}`, message: `Give the tracking number of each parcel sent home (${missing.length} missing).` })).sort((a, b) => a.field.localeCompare(b.field));
      throw new ApiError(400, "VALIDATION_ERROR", `Invalid body: ${fields[0]!.field}: ${fields[0]!.message}`, { in: "body", fields });
    }
  }
  for (const o of rows) {
    if (body.status === "sent" && o.status === "paid") await updateOrderStatus(db, accountId, o.id, { status: "in_production" });
    if (body.status === "shipped" && o.status === "paid") await updateOrderStatus(db, accountId, o.id, { status: "in_production" });
    if (body.status !== "shipped" || !parcels.includes(o)) continue;
    const rest = waiting.get(o.id);
    if (!rest) await updateOrderStatus(db, accountId, o.id, { status: "shipped", ...(body.tracking?.[o.id] ?? {}) }, id);
    else await shipPartOfOrder(db, accountId, o.id, id, body.tracking?.[o.id] ?? {}, rest);
  }
  await db
    .update(labBatches)
    .set({ status: body.status, [STAMP[body.status]]: new Date() })
    .where(and(eq(labBatches.id, id), eq(labBatches.accountId, accountId), inArray(labBatches.status, [FROM[body.status]])));
  // A file being fixed as the batch goes (pending again) is not in what the lab got: the next batch takes it (see fixPrintFile).
  if (body.status === "sent") await db.update(printFiles).set({ batchId: null }).where(and(eq(printFiles.accountId, accountId), eq(printFiles.batchId, id), eq(printFiles.status, "pending")));
  return getBatch(db, accountId, id);
}

/**
 * Per order (of `orderIds`) that cannot ship whole once batch `id` ships, the items whose
 * print files wait: not rendered, or in no batch that has shipped (nor this one). An order
 * missing from the map has all its files shipped.
 */
async function waitingItems(db: Db, accountId: string, id: string, orderIds: string[]): Promise<Map<string, Set<string>>> {
  const waiting = new Map<string, Set<string>>();
  if (!orderIds.length) return waiting;
  const files = await db
    .select({ orderId: printFiles.orderId, itemId: printFiles.orderItemId, status: printFiles.status, batchId: printFiles.batchId, batchStatus: labBatches.status })
    .from(printFiles)
    .leftJoin(labBatches, eq(labBatches.id, printFiles.batchId))
    .where(and(eq(printFiles.accountId, accountId), inArray(printFiles.orderId, orderIds)));
  for (const f of files) {
    if (f.status === "rendered" && (f.batchId === id || f.batchStatus === "shipped")) continue;
    waiting.set(f.orderId, (waiting.get(f.orderId) ?? new Set()).add(f.itemId));
  }
  return waiting;
}

/**
 * The studio moves an order on by hand (`PATCH /v1/orders/{id}`). Shipped is refused
 * (409 PRINT_FILES_WAITING, naming each file) while a print file of the order is held or
 * not rendered, as a batch ships only orders whose files all reached the lab: a print
 * the lab never got would be lost without anyone seeing it. The order's files are
 * collected first (a paid order not yet batched has them owed too); an order with no
 * print item (digital only) ships at once.
 */
export async function moveOrder(db: Db, accountId: string, orderId: string, body: z.output<typeof updateOrderBody>) {
  if (body.status === "shipped") {
    const [order] = await db.select({ status: orders.status }).from(orders).where(and(eq(orders.id, orderId), eq(orders.accountId, accountId)));
    if (!order) throw notFound("Order");
    if (order.status === "paid" || order.status === "in_production") {
      await collectPrintFiles(db, accountId, [orderId]);
      const files = await db.select().from(printFiles).where(and(eq(printFiles.accountId, accountId), eq(printFiles.orderId, orderId))).orderBy(printFiles.id);
      const waiting = files.filter((f) => f.status !== "rendered");
      if (waiting.length) {
        throw new ApiError(409, "PRINT_FILES_WAITING", `${waiting.length} of the order's ${files.length} print files ${waiting.length === 1 ? "is" : "are"} not ready for the lab (on hold or not rendered): fix or batch ${waiting.length === 1 ? "it" : "them"} before shipping.`, {
          files: waiting.map((f) => ({ id: f.id, order_item_id: f.orderItemId, product_code: f.productSku, size: sizeName(f), status: f.status, hold_code: f.holdCode, hold_reasons: f.holdReasons, batch_id: f.batchId })),
        });
      }
    }
  }
  return updateOrderStatus(db, accountId, orderId, body);
}
