import { labBatches, printFiles } from "@/lib/foundation/db/schema";
import { storage } from "@/lib/domain/storage";

const THUMB_URL_TTL_SECONDS = 3600;
const inches = (n: number) => String(Math.round(n * 100) / 100);
export const sizeName = (f: { widthIn: number; heightIn: number }) => `${inches(f.widthIn)}x${inches(f.heightIn)}`;

export async function presentPrintFile(f: typeof printFiles.$inferSelect) {
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
    thumb_url: f.thumbKey ? await storage().signedUrl(f.thumbKey, THUMB_URL_TTL_SECONDS) : null,
  };
}

export function presentBatch(b: typeof labBatches.$inferSelect, counts: Record<string, number>) {
  const rendered = counts.rendered ?? 0;
  const held = counts.held ?? 0;
  const pending = counts.pending ?? 0;
  const packed = b.status !== "rendering" && b.status !== "failed";
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
