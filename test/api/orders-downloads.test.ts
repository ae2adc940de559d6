import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import * as downloadsRoute from "@/app/v1/orders/[id]/downloads/route";
import * as refundsRoute from "@/app/v1/orders/[id]/refunds/route";
import * as fileRoute from "@/app/o/[token]/downloads/[itemId]/route";
import { getDb } from "@/lib/foundation/db/client";
import { galleryPhotos, jobFiles, orders, printFiles } from "@/lib/foundation/db/schema";
import * as orderRoute from "@/app/v1/orders/[id]/route";
import * as settingsRoute from "@/app/v1/services/studio/gallery-settings/route";
import { sweepOnce } from "@/lib/composition/maintenance/sweeper";
import { orderPhotoRetention } from "@/lib/services/orders/photo-retention";
import { newId } from "@/lib/foundation/ids";
import { storage } from "@/lib/domain/storage";
import { signDownloadUrl } from "@/lib/services/orders/download-links";
import { call, testAccount } from "../http";
import { ordersHarness } from "../support/orders-harness";

// Digital files after payment: signed, expiring links to the original on the
// receipt and the status page, checked at each download; the studio re-sends them.
const { smtp, paidOrder } = ordersHarness("whsec_test_downloads");

/** GET through the file route, as a browser follows the link. */
async function download(url: string) {
  const u = new URL(url);
  const [, , token, , itemId] = u.pathname.split("/");
  return fileRoute.GET(new Request(url), { params: Promise.resolve({ token: token!, itemId: itemId! }) });
}

/** A paid order (an 8x10 and a digital file of the parent's photos), with the digital photo's original in storage. */
async function paidWithOriginal() {
  const s = await paidOrder();
  const digital = s.order.items.find((i: { digital: boolean }) => i.digital);
  const db = await getDb();
  const [file] = await db.select({ key: jobFiles.storageKey }).from(galleryPhotos).innerJoin(jobFiles, eq(jobFiles.id, galleryPhotos.jobFileId)).where(eq(galleryPhotos.id, digital.photo_id));
  const original = Buffer.from(`original bytes of ${digital.photo_id}`);
  await storage().put(file!.key, original, "image/jpeg");
  return { ...s, digital, original };
}

describe("digital downloads", () => {
  it("come with the receipt, serve the original for the digital line only, and the studio re-sends them", async () => {
    const { owner, order, digital, original } = await paidWithOriginal();
    expect(order.items.map((i: { digital: boolean }) => i.digital)).toEqual([false, true]);
    const receipt = await smtp().waitFor(order.email, /^Receipt for your order/);
    const link = receipt.links.find((l) => l.includes("/downloads/"))!;
    expect(receipt.text).toContain("Your full-resolution downloads");
    expect(receipt.links.filter((l) => l.includes("/downloads/"))).toHaveLength(1);
    const res = await download(link);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer())).toEqual(original);
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="IMG_1\.jpg"/);
    expect(res.headers.get("cache-control")).toBe("private, no-store");

    const resent = await call(downloadsRoute, "POST", `/v1/orders/${order.id}/downloads`, { token: owner.token, params: { id: order.id }, body: {} });
    expect(resent.json).toEqual({ order_id: order.id, email: order.email, downloads: 1, mail: "sent" });
    const again = await smtp().waitFor(order.email, /^Your downloads for order/);
    expect((await download(again.links.find((l) => l.includes(`/downloads/${digital.id}`))!)).status).toBe(200);
  });

  it("answer 404 to an expired, tampered, other line's or other order's link, and once the line is refunded", async () => {
    const { owner, order, digital } = await paidWithOriginal();
    const other = await paidWithOriginal();
    const good = signDownloadUrl(order.id, digital.id);
    expect((await download(good)).status).toBe(200);
    // Expired: signed eight days ago (links live seven).
    expect((await download(signDownloadUrl(order.id, digital.id, Date.now() - 8 * 86_400_000))).status).toBe(404);
    // Tampered: a later expiry with the old signature; a changed signature.
    const later = new URL(good);
    later.searchParams.set("expires", String(Number(later.searchParams.get("expires")) + 86_400));
    expect((await download(later.toString())).status).toBe(404);
    // One character of the signature changed (to another: "A" → "B", anything else → "A"; the old
    // fixed "A" left 1 signature in 64 untouched, and CI saw that 200).
    expect((await download(good.replace(/sig=(.)/, (_, c: string) => `sig=${c === "A" ? "B" : "A"}`))).status).toBe(404);
    // The print line of the same order (signed properly): not digital.
    const print = order.items.find((i: { digital: boolean }) => !i.digital);
    expect((await download(signDownloadUrl(order.id, print.id))).status).toBe(404);
    // Another order's line under this order's link, and this order's signature on the other's line.
    expect((await download(good.replace(`/downloads/${digital.id}`, `/downloads/${other.digital.id}`))).status).toBe(404);
    const otherLink = new URL(signDownloadUrl(other.order.id, other.digital.id));
    expect((await download(good.replace(/\/o\/[^/]+\//, `/o/${otherLink.pathname.split("/")[2]}/`))).status).toBe(404);
    // Refunded: the link stops at once, and there is nothing to re-send.
    const refund = await call(refundsRoute, "POST", `/v1/orders/${order.id}/refunds`, { token: owner.token, params: { id: order.id }, body: { item_id: digital.id } });
    expect(refund.status, refund.text).toBe(200);
    expect((await download(good)).status).toBe(404);
    const none = await call(downloadsRoute, "POST", `/v1/orders/${order.id}/downloads`, { token: owner.token, params: { id: order.id }, body: {} });
    expect([none.status, none.json.error]).toEqual([409, "NO_DOWNLOADS"]);
    // Another studio cannot re-send them: 404.
    const stranger = await testAccount();
    expect((await call(downloadsRoute, "POST", `/v1/orders/${other.order.id}/downloads`, { token: stranger.token, params: { id: other.order.id }, body: {} })).status).toBe(404);
  });
});

const DAY_MS = 86_400_000;

/** The order placed `days` ago (the clock shift the retention sweep reads). */
async function placedDaysAgo(orderId: string, days: number) {
  const db = await getDb();
  await db.update(orders).set({ createdAt: new Date(Date.now() - days * DAY_MS) }).where(eq(orders.id, orderId));
}

describe("order photo retention", () => {
  it("removes an old order's print files and ends its downloads after the studio's retention days, keeping the order and its money", async () => {
    const { owner, order, digital, original } = await paidWithOriginal();
    const db = await getDb();
    // The print line's rendered file and thumbnail, as production leaves them in storage.
    const print = order.items.find((i: { digital: boolean }) => !i.digital);
    const fileKey = `print-files/${owner.account.id}/${order.id}/retention-print.jpg`;
    const thumbKey = `print-files/${owner.account.id}/${order.id}/retention-thumb.jpg`;
    await storage().put(fileKey, Buffer.from("print bytes"), "image/jpeg");
    await storage().put(thumbKey, Buffer.from("thumb bytes"), "image/jpeg");
    await db.insert(printFiles).values({ id: newId("prf"), accountId: owner.account.id, orderId: order.id, orderItemId: print.id, sheetItemId: "p8x10", productId: "prod", productSku: "8x10", widthIn: 8, heightIn: 10, quantity: 1, status: "rendered", fileKey, thumbKey });
    const link = signDownloadUrl(order.id, digital.id);

    const week = await call(settingsRoute, "PUT", "/v1/services/studio/gallery-settings", { token: owner.token, body: { order_photo_retention_days: 30 } });
    expect(week.json.order_photo_retention_days).toBe(30);
    await placedDaysAgo(order.id, 29);
    expect((await sweepOnce(db)).orderPhotos).toBe(0);
    expect((await orderPhotoRetention(db, owner.account.id, order.id))!.removedAt).toBeNull();
    expect((await download(link)).status).toBe(200);

    await placedDaysAgo(order.id, 31);
    expect((await sweepOnce(db)).orderPhotos).toBe(1);
    expect(await storage().get(fileKey)).toBeNull();
    expect(await storage().get(thumbKey)).toBeNull();
    const [row] = await db.select().from(printFiles).where(eq(printFiles.orderId, order.id));
    expect([row!.fileKey, row!.thumbKey]).toEqual([null, null]);
    // The order and its money stay; its downloads end (the original itself is the job's, and stays).
    const after = (await call(orderRoute, "GET", `/v1/orders/${order.id}`, { token: owner.token, params: { id: order.id } })).json;
    expect(after).toMatchObject({ id: order.id, status: order.status, total: order.total, items: order.items, photos_removed_at: expect.any(String) });
    expect((await download(link)).status).toBe(404);
    const none = await call(downloadsRoute, "POST", `/v1/orders/${order.id}/downloads`, { token: owner.token, params: { id: order.id }, body: {} });
    expect([none.status, none.json.error]).toEqual([409, "NO_DOWNLOADS"]);
    const [jobFile] = await db.select({ key: jobFiles.storageKey }).from(galleryPhotos).innerJoin(jobFiles, eq(jobFiles.id, galleryPhotos.jobFileId)).where(eq(galleryPhotos.id, digital.photo_id));
    expect((await storage().get(jobFile!.key))?.body).toEqual(original);
    expect((await sweepOnce(db)).orderPhotos).toBe(0);
    expect(await orderPhotoRetention(db, owner.account.id, order.id)).toMatchObject({ days: 30, removedAt: expect.any(Date) });
  });

  it("keeps a year by default, refuses a period under 30 days, and tells no other studio about the order", async () => {
    const { owner, order, digital } = await paidWithOriginal();
    const db = await getDb();
    await placedDaysAgo(order.id, 200);
    expect((await sweepOnce(db)).orderPhotos).toBe(0);
    expect((await download(signDownloadUrl(order.id, digital.id))).status).toBe(200);
    expect(await orderPhotoRetention(db, owner.account.id, order.id)).toMatchObject({ days: 365, removedAt: null });
    expect(await orderPhotoRetention(db, (await testAccount()).account.id, order.id)).toBeNull();
    const bad = await call(settingsRoute, "PUT", "/v1/services/studio/gallery-settings", { token: owner.token, body: { order_photo_retention_days: 7 } });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.json.details)).toContain("order_photo_retention_days");
  });
});
