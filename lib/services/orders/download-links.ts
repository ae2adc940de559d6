import crypto from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { galleryPhotos, jobFiles, orderItems, orders, type OrderStatus } from "@/lib/foundation/db/schema";
import { ApiError } from "@/lib/foundation/http/api-error";
import { sendMail } from "@/lib/domain/mail/send-mail";
import { recordAudit } from "@/lib/domain/audit/record-audit";
import { derivedKey } from "@/lib/foundation/secret";
import { appOrigin } from "@/lib/foundation/http/app-origin";
import { storage } from "@/lib/domain/storage";
import { orderIdFromToken, orderStatusUrl, orderToken } from "./order-link";
import { downloadsMail } from "./order-mail";
import { loadOrder } from "./present-order";
import { studioName } from "./studio-name";

/** A download link lives a week: long enough to find the e-mail again, short enough that a forwarded one dies. */
export const DOWNLOAD_LINK_TTL_SECONDS = 7 * 86_400;
/** Orders whose digital files may be downloaded: paid and not ended (a refunded item is excluded on its own). */
const DOWNLOADABLE: OrderStatus[] = ["paid", "in_production", "shipped", "delivered"];

const signature = (orderId: string, itemId: string, expires: number) => crypto.createHmac("sha256", derivedKey("order-download")).update(`${orderId}\n${itemId}\n${expires}`).digest("base64url");

/**
 * The full-resolution download of one digital line of a paid order: signed for
 * that order and that line, expiring. The file route checks the signature, the
 * expiry, and the order's state at the time of the download.
 */
export function signDownloadUrl(orderId: string, itemId: string, now = Date.now()): string {
  const expires = Math.floor(now / 1000) + DOWNLOAD_LINK_TTL_SECONDS;
  const q = new URLSearchParams({ expires: String(expires), sig: signature(orderId, itemId, expires) });
  return `${appOrigin()}/o/${orderToken(orderId)}/downloads/${encodeURIComponent(itemId)}?${q}`;
}

function verifySignature(orderId: string, itemId: string, params: URLSearchParams, now: number): boolean {
  const raw = params.get("expires") ?? "";
  if (!/^\d{1,12}$/.test(raw) || now >= Number(raw) * 1000) return false;
  const want = Buffer.from(signature(orderId, itemId, Number(raw)));
  const got = Buffer.from(params.get("sig") ?? "");
  return want.length === got.length && crypto.timingSafeEqual(want, got);
}

/** The digital lines of an order that may be downloaded now, each with a fresh link (none for an unpaid or ended order). */
export async function orderDownloads(db: Db, orderId: string, now = Date.now()): Promise<{ item_id: string; name: string; url: string }[]> {
  const [order] = await db.select({ status: orders.status, photosRemovedAt: orders.photosRemovedAt }).from(orders).where(eq(orders.id, orderId));
  // Past the studio's retention period the order's photos are no longer handed out.
  if (!order || !DOWNLOADABLE.includes(order.status) || order.photosRemovedAt) return [];
  const items = await db.select().from(orderItems).where(and(eq(orderItems.orderId, orderId), eq(orderItems.digital, true), eq(orderItems.refundedAmount, 0)));
  return items.map((i) => ({ item_id: i.id, name: i.name, url: signDownloadUrl(orderId, i.id, now) }));
}

/**
 * The original behind a download link, or null for anything not exactly a live
 * link of a digital, unrefunded line of a paid order (the route answers 404 alike).
 */
export async function downloadFile(db: Db, token: string, itemId: string, params: URLSearchParams, now = Date.now()) {
  const orderId = orderIdFromToken(token);
  if (!orderId || !verifySignature(orderId, itemId, params, now)) return null;
  const [row] = await db
    .select({ status: orders.status, photosRemovedAt: orders.photosRemovedAt, digital: orderItems.digital, refunded: orderItems.refundedAmount, key: jobFiles.storageKey, filename: jobFiles.filename })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .innerJoin(galleryPhotos, and(eq(galleryPhotos.id, orderItems.photoId), eq(galleryPhotos.accountId, orders.accountId)))
    .innerJoin(jobFiles, eq(jobFiles.id, galleryPhotos.jobFileId))
    .where(and(eq(orderItems.id, itemId), eq(orderItems.orderId, orderId), inArray(orders.status, DOWNLOADABLE)));
  if (!row || !row.digital || row.refunded > 0 || row.photosRemovedAt) return null;
  const file = await storage().get(row.key);
  return file ? { ...file, filename: row.filename } : null;
}

/**
 * POST /v1/orders/{id}/downloads: the studio sends the parent fresh download links
 * (a lost e-mail, expired links). 409 when the order has nothing to download now.
 */
export async function resendDownloads(db: Db, accountId: string, orderId: string) {
  const order = await loadOrder(db, accountId, orderId);
  const downloads = await orderDownloads(db, orderId);
  if (!downloads.length) throw new ApiError(409, "NO_DOWNLOADS", "This order has no digital files to download now (not paid, refunded, or nothing digital in it).", { status: order.status });
  const studio = await studioName(db, accountId);
  const sent = await sendMail(db, downloadsMail(order, studio, orderStatusUrl(orderId), downloads), { accountId });
  await recordAudit(db, { accountId, action: "order.downloads_sent", target: orderId, data: { items: downloads.map((d) => d.item_id) } });
  return { order_id: orderId, email: order.email, downloads: downloads.length, mail: sent };
}
