import { and, count, desc, eq, inArray } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { agencyJobs, gallerySettings, jobPriceSheets, priceSheets, products, studioBackgrounds, type SheetItem, type SheetPackage, type ShippingOption } from "@/lib/foundation/db/schema";
import { newId } from "@/lib/foundation/ids";
import { OUTPUT_URL_TTL_SECONDS, storage } from "@/lib/domain/storage";
import { ApiError, notFound } from "@/lib/foundation/http/api-error";
import { isForeignKeyViolation } from "@/lib/services/core/db-errors";
import type { CreateSheetInput, UpdateSheetInput } from "./schemas";

export type SheetRow = typeof priceSheets.$inferSelect;
type ProductSize = { width_in: number; height_in: number; bleed_mm: number; min_ppi: number; product_type: string };

/** The same 400 as a zod refusal, for what only the database can check (the product exists, a package's item is in the sheet). */
export const invalidField = (field: string, message: string) => new ApiError(400, "VALIDATION_ERROR", `Invalid body: ${field}: ${message}`, { in: "body", fields: [{ field, message }] });
const invalid = invalidField;

/** The sheet as the API shows it; each print item carries its product's size, bleed and minimum ppi (for the crop and the ppi warning). */
export function toPublicSheet(row: SheetRow, sizes: Map<string, ProductSize>) {
  return {
    id: row.id,
    name: row.name,
    currency: row.currency,
    tax_rate_bps: row.taxRateBps,
    items: row.items.map((i) => ({ ...i, allow_backgrounds: i.allow_backgrounds ?? false, product: i.product_id ? (sizes.get(i.product_id) ?? null) : null })),
    packages: row.packages,
    shipping: row.shipping,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

async function productSizes(db: Db, accountId: string, rows: SheetRow[]) {
  const ids = [...new Set(rows.flatMap((r) => r.items.map((i) => i.product_id).filter((p): p is string => Boolean(p))))];
  if (ids.length === 0) return new Map<string, ProductSize>();
  const found = await db.select().from(products).where(and(eq(products.accountId, accountId), inArray(products.id, ids)));
  return new Map(found.map((p) => [p.id, { width_in: p.widthIn, height_in: p.heightIn, bleed_mm: p.bleedMm, min_ppi: p.minPpi, product_type: p.productType }]));
}

export async function presentSheet(db: Db, row: SheetRow) {
  return toPublicSheet(row, await productSizes(db, row.accountId, [row]));
}

/**
 * Items, packages and shipping as stored: ids made for new lines, print items checked
 * against the account's products (a print names one; its name defaults to the
 * product's), and every package item naming an item of this sheet.
 */
async function normalise(db: Db, accountId: string, input: { items: CreateSheetInput["items"]; packages: CreateSheetInput["packages"]; shipping: CreateSheetInput["shipping"] }) {
  const productIds = [...new Set(input.items.map((i) => i.product_id).filter((p): p is string => Boolean(p)))];
  const found = productIds.length ? await db.select({ id: products.id, name: products.name }).from(products).where(and(eq(products.accountId, accountId), inArray(products.id, productIds))) : [];
  const names = new Map(found.map((p) => [p.id, p.name]));
  const items: SheetItem[] = input.items.map((i, n) => {
    if (i.kind === "print" && !i.product_id) throw invalid(`items.${n}.product_id`, "A print names the product it is printed as (product_id).");
    if (i.kind === "digital" && i.product_id) throw invalid(`items.${n}.product_id`, "A digital file has no product.");
    if (i.product_id && !names.has(i.product_id)) throw invalid(`items.${n}.product_id`, `No product ${i.product_id} in this studio.`);
    if (i.kind === "digital" && i.allow_backgrounds) throw invalid(`items.${n}.allow_backgrounds`, "Only a print can be composited onto a background.");
    const name = i.name ?? (i.product_id ? names.get(i.product_id)! : "Digital file");
    return { id: i.id ?? newId("itm"), kind: i.kind, product_id: i.product_id ?? null, name, price: i.price, lab_cost: i.lab_cost, allow_backgrounds: i.allow_backgrounds ?? false };
  });
  const itemIds = new Set(items.map((i) => i.id));
  const packages: SheetPackage[] = input.packages.map((p, n) => {
    p.items.forEach((pi, k) => {
      if (!itemIds.has(pi.item_id)) throw invalid(`packages.${n}.items.${k}.item_id`, `No item ${pi.item_id} in this sheet.`);
    });
    return { id: p.id ?? newId("pkg"), name: p.name, price: p.price, items: p.items };
  });
  const shipping: ShippingOption[] = input.shipping.map((s) => ({ ...s, id: s.id ?? newId("shp") }));
  const all = [...items.map((i) => i.id), ...packages.map((p) => p.id), ...shipping.map((s) => s.id)];
  if (new Set(all).size !== all.length) throw invalid("items", "Item, package and shipping ids must be different from each other.");
  return { items, packages, shipping };
}

export async function createSheet(db: Db, accountId: string, input: CreateSheetInput) {
  const lines = await normalise(db, accountId, input);
  const [row] = await db.insert(priceSheets).values({ id: newId("psh"), accountId, name: input.name, currency: input.currency, taxRateBps: input.tax_rate_bps, ...lines }).returning();
  return presentSheet(db, row!);
}

export async function requireSheet(db: Db, accountId: string, id: string): Promise<SheetRow> {
  const [row] = await db.select().from(priceSheets).where(and(eq(priceSheets.id, id), eq(priceSheets.accountId, accountId)));
  if (!row) throw notFound("Price sheet");
  return row;
}

export async function getSheet(db: Db, accountId: string, id: string) {
  return presentSheet(db, await requireSheet(db, accountId, id));
}

export async function listSheets(db: Db, accountId: string, window: { limit: number; offset: number }) {
  const rows = await db.select().from(priceSheets).where(eq(priceSheets.accountId, accountId)).orderBy(desc(priceSheets.createdAt), desc(priceSheets.id)).limit(window.limit).offset(window.offset);
  const [total] = await db.select({ n: count() }).from(priceSheets).where(eq(priceSheets.accountId, accountId));
  const sizes = await productSizes(db, accountId, rows);
  return { items: rows.map((r) => toPublicSheet(r, sizes)), total: total?.n ?? 0 };
}

export async function updateSheet(db: Db, accountId: string, id: string, input: UpdateSheetInput) {
  const row = await requireSheet(db, accountId, id);
  const lines = await normalise(db, accountId, { items: input.items ?? row.items, packages: input.packages ?? row.packages, shipping: input.shipping ?? row.shipping });
  const [updated] = await db
    .update(priceSheets)
    .set({ name: input.name, currency: input.currency, taxRateBps: input.tax_rate_bps, ...lines, updatedAt: new Date() })
    .where(and(eq(priceSheets.id, id), eq(priceSheets.accountId, accountId)))
    .returning();
  return presentSheet(db, updated!);
}

/** Refused (409) while a job sells from it: the job would have nothing to sell. */
export async function deleteSheet(db: Db, accountId: string, id: string) {
  await requireSheet(db, accountId, id);
  try {
    await db.delete(priceSheets).where(and(eq(priceSheets.id, id), eq(priceSheets.accountId, accountId)));
  } catch (err) {
    if (isForeignKeyViolation(err)) throw new ApiError(409, "PRICE_SHEET_IN_USE", "A job sells from this price sheet: assign another sheet to it first.");
    throw err;
  }
  return { deleted: true as const };
}

async function requireStudioJob(db: Db, accountId: string, agencyId: number, jobId: number) {
  const [job] = await db.select({ id: agencyJobs.id }).from(agencyJobs).where(and(eq(agencyJobs.id, jobId), eq(agencyJobs.agencyId, agencyId), eq(agencyJobs.accountId, accountId)));
  if (!job) throw notFound("Job");
}

export async function getJobSheet(db: Db, accountId: string, agencyId: number, jobId: number) {
  await requireStudioJob(db, accountId, agencyId, jobId);
  const [row] = await db.select().from(jobPriceSheets).where(and(eq(jobPriceSheets.jobId, jobId), eq(jobPriceSheets.accountId, accountId)));
  return { job_id: jobId, price_sheet_id: row?.priceSheetId ?? null };
}

/** Assigns the sheet a job's galleries sell from; null takes it away. */
export async function assignJobSheet(db: Db, accountId: string, agencyId: number, jobId: number, sheetId: string | null) {
  await requireStudioJob(db, accountId, agencyId, jobId);
  if (sheetId === null) {
    await db.delete(jobPriceSheets).where(and(eq(jobPriceSheets.jobId, jobId), eq(jobPriceSheets.accountId, accountId)));
    return { job_id: jobId, price_sheet_id: null };
  }
  const [sheet] = await db.select({ id: priceSheets.id }).from(priceSheets).where(and(eq(priceSheets.id, sheetId), eq(priceSheets.accountId, accountId)));
  if (!sheet) throw invalid("price_sheet_id", `No price sheet ${sheetId} in this studio.`);
  await db
    .insert(jobPriceSheets)
    .values({ jobId, accountId, priceSheetId: sheetId })
    .onConflictDoUpdate({ target: jobPriceSheets.jobId, set: { priceSheetId: sheetId, updatedAt: new Date() } });
  return { job_id: jobId, price_sheet_id: sheetId };
}

/** The sheet a job sells from, or null. */
export async function sheetForJob(db: Db, accountId: string, jobId: number): Promise<SheetRow | null> {
  const [row] = await db
    .select({ sheet: priceSheets })
    .from(jobPriceSheets)
    .innerJoin(priceSheets, eq(priceSheets.id, jobPriceSheets.priceSheetId))
    .where(and(eq(jobPriceSheets.jobId, jobId), eq(jobPriceSheets.accountId, accountId)));
  return row?.sheet ?? null;
}

/**
 * What the parent's storefront shows: the job's sheet without lab costs (the
 * studio's own business), prints with their product's size and minimum ppi for
 * the crop and its warning, and whether digital files are sold.
 */
export async function parentSheet(db: Db, scope: { accountId: string; jobId: number }) {
  const row = await sheetForJob(db, scope.accountId, scope.jobId);
  const [settings] = await db.select({ on: gallerySettings.downloadsEnabled }).from(gallerySettings).where(eq(gallerySettings.accountId, scope.accountId));
  const downloads = settings?.on ?? false;
  if (!row) throw new ApiError(404, "NOT_FOUND", "This gallery has nothing for sale yet.");
  const sheet = await presentSheet(db, row);
  const digital = new Set(sheet.items.filter((i) => i.kind === "digital").map((i) => i.id));
  return {
    currency: sheet.currency,
    tax_rate_bps: sheet.tax_rate_bps,
    items: sheet.items.filter((i) => downloads || i.kind !== "digital").map((i) => ({ id: i.id, kind: i.kind, name: i.name, price: i.price, allow_backgrounds: i.allow_backgrounds, product: i.product })),
    packages: sheet.packages.filter((p) => downloads || !p.items.some((i) => digital.has(i.item_id))),
    shipping: sheet.shipping,
    backgrounds: sheet.items.some((i) => i.allow_backgrounds) ? await offeredBackgrounds(db, scope.accountId) : [],
  };
}

/** The studio's backgrounds as a parent picks them: a colour, or a small picture. */
async function offeredBackgrounds(db: Db, accountId: string) {
  const rows = await db.select().from(studioBackgrounds).where(eq(studioBackgrounds.accountId, accountId)).orderBy(studioBackgrounds.createdAt, studioBackgrounds.id);
  return Promise.all(rows.map(async (b) => ({ id: b.id, name: b.name, kind: b.kind, color: b.color, thumbnail_url: b.thumbnailKey ? await storage().signedUrl(b.thumbnailKey, OUTPUT_URL_TTL_SECONDS) : null })));
}
