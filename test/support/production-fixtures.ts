// A studio with paid orders ready for production: products of several sizes, a
// price sheet selling them singly and in a package, children with class and teacher,
// their original photos in storage (a 1200 x 900 test pattern; one stored sideways
// with an EXIF orientation), and paid orders written as the Stripe webhook leaves them.
import sharp from "sharp";
import * as productsRoute from "@/app/v1/products/route";
import * as sheetsRoute from "@/app/v1/price-sheets/route";
import { getDb } from "@/lib/foundation/db/client";
import { galleries, galleryPhotos, jobFiles, orderItems, orders, subjects, type OrderShipping } from "@/lib/foundation/db/schema";
import { newId } from "@/lib/foundation/ids";
import { storage } from "@/lib/domain/storage";
import { productBody } from "../api/core-fixtures";
import { call } from "../http";
import { sellingStudio } from "./orders-fixtures";

export const ORIGINAL = { width: 1200, height: 900 };

/** A smooth pattern (gradients and large blocks): a wrong region or orientation shows at once, resampling barely does. */
export async function patternPng(): Promise<Buffer> {
  const { width, height } = ORIGINAL;
  const px = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      px[i] = Math.round((x / width) * 255);
      px[i + 1] = Math.round((y / height) * 255);
      px[i + 2] = (Math.floor(x / 150) + Math.floor(y / 150)) % 2 ? 220 : 30;
    }
  }
  return sharp(px, { raw: { width, height, channels: 3 } }).png().toBuffer();
}

/** The original as a camera stores it: upright JPEG, or turned with EXIF orientation 6 (display turns it back). */
export async function originalJpeg(upright: Buffer, sideways = false): Promise<Buffer> {
  if (!sideways) return sharp(upright).jpeg({ quality: 95 }).toBuffer();
  return sharp(upright).rotate(270).withMetadata({ orientation: 6 }).jpeg({ quality: 95 }).toBuffer();
}

type ProductSpec = { key: string; width_in: number; height_in: number; bleed_mm: number; min_ppi: number; color_mode: "rgb" | "cmyk" | "grayscale" };

export async function productionStudio(token: string, accountId: string, specs: ProductSpec[]) {
  const studio = await sellingStudio(token);
  const productIds: Record<string, string> = {};
  const skus: Record<string, string> = {};
  for (const s of specs) {
    const res = await call(productsRoute, "POST", "/v1/products", { token, body: productBody({ name: `${s.key} print`, sku: `PR-${s.key}-${newId("x").slice(-5)}`, product_type: "poster", width_in: s.width_in, height_in: s.height_in, bleed_mm: s.bleed_mm, min_ppi: s.min_ppi, color_mode: s.color_mode }) });
    if (res.status !== 201) throw new Error(res.text);
    productIds[s.key] = res.json.id;
    skus[s.key] = res.json.sku;
  }
  const items = specs.map((s) => ({ id: `i${s.key}`, kind: "print", product_id: productIds[s.key], name: `${s.key} print`, price: 1000, lab_cost: 200 }));
  const sheet = await call(sheetsRoute, "POST", "/v1/price-sheets", {
    token,
    body: {
      name: "Production sheet",
      currency: "usd",
      tax_rate_bps: 0,
      items: [...items, { id: "dig", kind: "digital", name: "Digital", price: 500, lab_cost: 0 }],
      packages: [{ id: "pkg", name: "Package", price: 2500, items: [{ item_id: items[0]!.id, quantity: 2 }, { item_id: "dig", quantity: 1 }] }],
      shipping: [
        { id: "home", type: "home", name: "Home", price: 500 },
        { id: "school", type: "school", name: "Oak Elementary", batch_date: "2026-12-15" },
      ],
    },
  });
  if (sheet.status !== 201) throw new Error(sheet.text);
  const upright = await patternPng();
  const db = await getDb();
  const photoCache = new Map<string, string>();

  /** A child (class, teacher) with one photo in its gallery; returns the gallery photo id. */
  async function child(name: string, className: string, teacher: string, sideways = false) {
    const subjectId = newId("sub");
    await db.insert(subjects).values({ id: subjectId, accountId, agencyId: Number(studio.agencyId), studentId: `S-${subjectId.slice(-6)}`, name, className, teacher });
    const [gallery] = await db.insert(galleries).values({ id: newId("gal"), accountId, jobId: Number(studio.jobId), kind: "subject", subjectId, status: "published", publishedAt: new Date() }).returning();
    const key = `studio/${accountId}/prod-test/${subjectId}.jpg`;
    await storage().put(key, await originalJpeg(upright, sideways), "image/jpeg");
    const [file] = await db
      .insert(jobFiles)
      .values({ accountId, jobId: Number(studio.jobId), filename: `${name}.jpg`, storageKey: key, thumbnailKey: key, contentType: "image/jpeg", size: 1000, width: sideways ? 900 : 1200, height: sideways ? 1200 : 900 })
      .returning();
    const [photo] = await db.insert(galleryPhotos).values({ id: newId("gph"), galleryId: gallery!.id, accountId, jobFileId: file!.id, source: "qr_sort", position: 0 }).returning();
    photoCache.set(photo!.id, subjectId);
    return { photoId: photo!.id, subjectId };
  }

  /** A paid order of a child: lines of (sheet item or package, quantity, crop). */
  async function paidOrder(kid: { photoId: string; subjectId: string }, school: boolean, lines: { ref: string; kind?: "item" | "package"; quantity: number; crop?: { x: number; y: number; width: number; height: number } }[], paidAt = new Date()) {
    const id = newId("ord");
    const shipping: OrderShipping = school
      ? { option_id: "school", type: "school", name: "Oak Elementary", batch_date: "2026-12-15" }
      : { option_id: "home", type: "home", name: "Home", address: { name: "Sam Park", line1: "1 Elm St", city: "Springfield", postal_code: "12345", country: "US" } };
    await db.insert(orders).values({ id, accountId, jobId: Number(studio.jobId), subjectId: kid.subjectId, priceSheetId: sheet.json.id, email: "parent@example.com", status: "paid", currency: "usd", subtotal: 1000, total: 1000, shipping, stripeAccountId: "acct_test", paidAt });
    const itemIds: string[] = [];
    for (const [position, l] of lines.entries()) {
      const itemId = newId("oit");
      itemIds.push(itemId);
      await db.insert(orderItems).values({ id: itemId, orderId: id, accountId, photoId: kid.photoId, position, kind: l.kind ?? "item", refId: l.ref, name: l.ref, quantity: l.quantity, unitPrice: 1000, unitLabCost: 200, lineTotal: 1000 * l.quantity, crop: l.crop ?? null });
    }
    return { id, itemIds };
  }

  return { studio, productIds, skus, sheetId: sheet.json.id as string, upright, child, paidOrder };
}
