import { inArray } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { labBatches, printFiles, type LabBatchStatus } from "@/lib/foundation/db/schema";
import { storage } from "@/lib/domain/storage";

const THUMB_URL_TTL_SECONDS = 3600;
const inches = (n: number) => String(Math.round(n * 100) / 100);
export const sizeName = (f: { widthIn: number; heightIn: number }) => `${inches(f.widthIn)}x${inches(f.heightIn)}`;

type PrintFileRow = typeof printFiles.$inferSelect;

/** Print files as the API shows them, with their batch's status (one query for all of them). */
export async function presentPrintFiles(db: Db, files: PrintFileRow[]) {
  const batchIds = [...new Set(files.flatMap((f) => (f.batchId ? [f.batchId] : [])))];
  const rows = batchIds.length ? await db.select({ id: labBatches.id, status: labBatches.status }).from(labBatches).where(inArray(labBatches.id, batchIds)) : [];
  const statusOf = new Map(rows.map((r) => [r.id, r.status]));
  return Promise.all(files.map((f) => presentPrintFile(f, f.batchId ? (statusOf.get(f.batchId) ?? null) : null)));
}

/** `batchStatus`: the status of the file's batch (null in none). A file has shipped when it was rendered into a batch the lab shipped (a held file in that batch was not in it). */
async function presentPrintFile(f: PrintFileRow, batchStatus: LabBatchStatus | null) {
  return {
    id: f.id,
    order_id: f.orderId,
    order_item_id: f.orderItemId,
    product_id: f.productId,
    product_code: f.productSku,
    size: sizeName(f),
    quantity: f.quantity,
    status: f.status,
    hold_reasons: f.holdReasons,
    hold_code: f.holdCode,
    background_id: f.backgroundId,
    matte_released: f.matteReleased,
    width_px: f.widthPx,
    height_px: f.heightPx,
    source_ppi: f.sourcePpi,
    batch_id: f.batchId,
    batch_status: batchStatus,
    shipped: f.status === "rendered" && batchStatus === "shipped",
    thumb_url: f.thumbKey ? await storage().signedUrl(f.thumbKey, THUMB_URL_TTL_SECONDS) : null,
  };
}

export function presentBatch(b: typeof labBatches.$inferSelect, counts: Record<string, number>) {
  const rendered = counts.rendered ?? 0;
  const held = counts.held ?? 0;
  const pending = counts.pending ?? 0;
  const packed = b.status !== "rendering" && b.status !== "held" && b.status !== "failed";
  return {
    id: b.id,
    shipping: b.shipping,
    job_id: b.jobId,
    paid_on: b.paidOn,
    status: b.status,
    error: b.error,
    order_count: b.orderCount,
    progress: { total: rendered + held + pending, rendered, held, pending },
    zip_url: packed ? `/v1/production/batches/${b.id}/zip` : null,
    slips_url: packed ? `/v1/production/batches/${b.id}/slips` : null,
    created_at: b.createdAt.toISOString(),
  };
}
