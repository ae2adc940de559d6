import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { orders } from "@/lib/foundation/db/schema";
import { gallerySettingsOf } from "@/lib/services/galleries/settings";

const DAY_MS = 86_400_000;

/** How long the order's photo files are kept (the studio's setting), when they go or went; null for no such order of the studio. */
export async function orderPhotoRetention(db: Db, accountId: string, orderId: string) {
  const [order] = await db.select({ createdAt: orders.createdAt, removedAt: orders.photosRemovedAt }).from(orders).where(and(eq(orders.id, orderId), eq(orders.accountId, accountId)));
  if (!order) return null;
  const { orderPhotoRetentionDays: days } = await gallerySettingsOf(db, accountId);
  return { days, removeAfter: new Date(order.createdAt.getTime() + days * DAY_MS), removedAt: order.removedAt };
}
