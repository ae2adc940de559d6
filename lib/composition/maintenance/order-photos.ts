import { and, eq, inArray, isNull, lt, or, isNotNull, sql } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { gallerySettings, orders, printFiles } from "@/lib/foundation/db/schema";
import { storage } from "@/lib/domain/storage";
import { GALLERY_SETTING_DEFAULTS } from "@/lib/services/galleries/settings";

/** Orders per sweep; the next hourly sweep takes the rest. */
const BATCH = 200;

/**
 * Order photo retention (the hourly sweep): an order placed longer ago than its
 * studio's order_photo_retention_days (gallery settings, default 365) loses its
 * photo files: the print files and their thumbnails are deleted from storage,
 * and its digital downloads end (download-links.ts refuses an order with
 * photos_removed_at). The order, its lines, refunds and money stay for the
 * studio's accounts. Here, not in a product, because it spans orders (the
 * setting, the order) and production (the print files).
 * Files first, then the rows: a delete that throws leaves the order for the next sweep.
 */
export async function removeOldOrderPhotos(db: Db, now = new Date()): Promise<number> {
  const days = sql<number>`coalesce(${gallerySettings.orderPhotoRetentionDays}, ${GALLERY_SETTING_DEFAULTS.orderPhotoRetentionDays})`;
  const due = await db
    .select({ id: orders.id })
    .from(orders)
    .leftJoin(gallerySettings, eq(gallerySettings.accountId, orders.accountId))
    .where(and(isNull(orders.photosRemovedAt), lt(orders.createdAt, sql`${now.toISOString()}::timestamptz - ${days} * interval '1 day'`)))
    .limit(BATCH);
  if (due.length === 0) return 0;
  const ids = due.map((o) => o.id);
  const files = await db
    .select({ fileKey: printFiles.fileKey, thumbKey: printFiles.thumbKey })
    .from(printFiles)
    .where(and(inArray(printFiles.orderId, ids), or(isNotNull(printFiles.fileKey), isNotNull(printFiles.thumbKey))));
  for (const f of files) {
    if (f.fileKey) await storage().delete(f.fileKey);
    if (f.thumbKey) await storage().delete(f.thumbKey);
  }
  await db.transaction(async (tx) => {
    await tx.update(printFiles).set({ fileKey: null, thumbKey: null }).where(inArray(printFiles.orderId, ids));
    await tx.update(orders).set({ photosRemovedAt: now }).where(and(inArray(orders.id, ids), isNull(orders.photosRemovedAt)));
  });
  return due.length;
}
