import { and, count, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { labBatches, orders, printFiles } from "@/lib/foundation/db/schema";
import { ApiError, notFound } from "@/lib/foundation/http/api-error";
import { newId } from "@/lib/foundation/ids";
import { startJob } from "@/lib/domain/jobs/start-job";
import { productionBatchRequested } from "@/lib/domain/jobs/events";
import { collectPrintFiles } from "./collect-print-files";
import { presentBatch, presentPrintFiles } from "./present-batch";
import type { CreateBatchBody } from "./schemas";

export type BatchRow = typeof labBatches.$inferSelect;

/**
 * A lab batch: the paid orders of a job or a day shipped one way (direct to
 * homes, or in bulk to the school) whose print files are in no batch yet and not
 * on hold. The files are claimed and the render job started in one transaction,
 * so two studio clicks never put a file in two batches. Orders already in production
 * or shipped bring only their files waiting for a batch: those fixed after their
 * batch went to the lab (fixPrintFile); they get no new files.
 */
export async function createBatch(db: Db, accountId: string, body: CreateBatchBody) {
  const id = newId("lbt");
  await db.transaction(async (tx) => {
    const found = await tx
      .select({ id: orders.id, status: orders.status })
      .from(orders)
      .where(
        and(
          eq(orders.accountId, accountId),
          inArray(orders.status, ["paid", "in_production", "shipped"]),
          sql`${orders.shipping}->>'type' = ${body.shipping === "school" ? "school" : "home"}`,
          body.job_id !== undefined ? eq(orders.jobId, body.job_id) : undefined,
          body.paid_on !== undefined ? sql`(${orders.paidAt} AT TIME ZONE 'UTC')::date = ${body.paid_on}::date` : undefined,
        ),
      );
    const orderIds = found.map((o) => o.id);
    await collectPrintFiles(tx, accountId, found.filter((o) => o.status === "paid").map((o) => o.id));
    await tx.insert(labBatches).values({ id, accountId, shipping: body.shipping, jobId: body.job_id ?? null, paidOn: body.paid_on ?? null });
    const claimed = orderIds.length
      ? await tx
          .update(printFiles)
          .set({ batchId: id })
          .where(and(eq(printFiles.accountId, accountId), inArray(printFiles.orderId, orderIds), isNull(printFiles.batchId), inArray(printFiles.status, ["pending", "rendered"])))
          .returning({ orderId: printFiles.orderId })
      : [];
    if (claimed.length === 0) {
      throw new ApiError(409, "NOTHING_TO_BATCH", `No paid ${body.shipping === "school" ? "school-shipped" : "home-shipped"} print items of that ${body.job_id !== undefined ? "job" : "day"} are waiting for a batch.`, { shipping: body.shipping, job_id: body.job_id ?? null, paid_on: body.paid_on ?? null });
    }
    await tx.update(labBatches).set({ orderCount: new Set(claimed.map((c) => c.orderId)).size }).where(eq(labBatches.id, id));
    await startJob(tx, productionBatchRequested.create({ batchId: id, accountId }));
  });
  return getBatch(db, accountId, id);
}

export async function requireBatch(db: Db, accountId: string, id: string): Promise<BatchRow> {
  const [batch] = await db.select().from(labBatches).where(and(eq(labBatches.id, id), eq(labBatches.accountId, accountId)));
  if (!batch) throw notFound("Batch");
  return batch;
}

async function progressOf(db: Db, batchIds: string[]) {
  if (batchIds.length === 0) return new Map<string, Record<string, number>>();
  const rows = await db.select({ batchId: printFiles.batchId, status: printFiles.status, n: count() }).from(printFiles).where(inArray(printFiles.batchId, batchIds)).groupBy(printFiles.batchId, printFiles.status);
  const map = new Map<string, Record<string, number>>();
  for (const r of rows) map.set(r.batchId!, { ...(map.get(r.batchId!) ?? {}), [r.status]: r.n });
  return map;
}

/** A batch with its progress and, in full, every file with its picture and holds. */
export async function getBatch(db: Db, accountId: string, id: string) {
  const batch = await requireBatch(db, accountId, id);
  const files = await db.select().from(printFiles).where(and(eq(printFiles.accountId, accountId), eq(printFiles.batchId, id))).orderBy(printFiles.orderId, printFiles.id);
  const progress = (await progressOf(db, [id])).get(id) ?? {};
  return { ...presentBatch(batch, progress), files: await presentPrintFiles(db, files) };
}

export async function listBatches(db: Db, accountId: string, page: { limit: number; offset: number }) {
  const [{ total }] = (await db.select({ total: count() }).from(labBatches).where(eq(labBatches.accountId, accountId))) as [{ total: number }];
  const rows = await db.select().from(labBatches).where(eq(labBatches.accountId, accountId)).orderBy(desc(labBatches.createdAt), desc(labBatches.id)).limit(page.limit).offset(page.offset);
  const progress = await progressOf(db, rows.map((r) => r.id));
  return { items: rows.map((r) => presentBatch(r, progress.get(r.id) ?? {})), total };
}

/** An order's print files, wherever they are: the order page's holds and pictures, and which have shipped (an order ships once all have: moveBatch). */
export async function orderPrintFiles(db: Db, accountId: string, orderId: string) {
  const [order] = await db.select({ id: orders.id }).from(orders).where(and(eq(orders.id, orderId), eq(orders.accountId, accountId)));
  if (!order) throw notFound("Order");
  const files = await db.select().from(printFiles).where(and(eq(printFiles.accountId, accountId), eq(printFiles.orderId, orderId))).orderBy(printFiles.id);
  return { data: await presentPrintFiles(db, files) };
}
