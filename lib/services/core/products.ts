import { and, count, eq, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { products, projects } from "@/lib/foundation/db/schema";
import { isUniqueViolation } from "@/lib/foundation/db/errors";
import { newId } from "@/lib/foundation/ids";
import { ApiError, conflict, notFound } from "@/lib/foundation/http/api-error";
import { minPpiFor } from "./catalog-values";
import { isForeignKeyViolation } from "./db-errors";
import { keysetPage, type KeysetStep } from "./keyset-page";
import { keysetSql, rowKey } from "./keyset-sql";
import type { CreateProductInput, ProductListQuery, UpdateProductInput } from "./product-schemas";

export type ProductRow = typeof products.$inferSelect;
/** What the caller may see: everything, or (unauth token) public products only. */
export type ProductScope = { accountId: string; publicOnly: boolean };

export function toPublicProduct(row: ProductRow) {
  return {
    id: row.id,
    sku: row.sku,
    name: row.name,
    product_type: row.productType,
    width_in: row.widthIn,
    height_in: row.heightIn,
    bleed_mm: row.bleedMm,
    min_ppi: row.minPpi,
    color_mode: row.colorMode,
    price: row.price,
    currency: row.currency,
    status: row.status,
    is_public: row.isPublic,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
export type PublicProduct = ReturnType<typeof toPublicProduct>;

/** Update columns; drizzle leaves keys whose value is undefined untouched. */
function columnsFrom(input: UpdateProductInput) {
  return {
    sku: input.sku,
    name: input.name,
    productType: input.product_type,
    widthIn: input.width_in,
    heightIn: input.height_in,
    bleedMm: input.bleed_mm,
    minPpi: input.min_ppi,
    colorMode: input.color_mode,
    price: input.price,
    currency: input.currency,
    status: input.status,
    isPublic: input.is_public,
  };
}

const skuTaken = (sku: string) =>
  new ApiError(409, "SKU_TAKEN", `Another product of this account already has SKU ${sku}.`, { field: "sku" });

export async function createProduct(db: Db, accountId: string, input: CreateProductInput) {
  try {
    const [row] = await db
      .insert(products)
      .values({
        id: newId("prd"),
        accountId,
        sku: input.sku,
        name: input.name,
        productType: input.product_type,
        widthIn: input.width_in,
        heightIn: input.height_in,
        bleedMm: input.bleed_mm,
        minPpi: input.min_ppi ?? minPpiFor(input.product_type),
        colorMode: input.color_mode,
        price: input.price,
        currency: input.currency,
        status: input.status,
        isPublic: input.is_public,
      })
      .returning();
    return toPublicProduct(row!);
  } catch (err) {
    if (isUniqueViolation(err, "products_account_sku_key")) throw skuTaken(input.sku);
    throw err;
  }
}

function scopeWhere(scope: ProductScope): SQL {
  const own = eq(products.accountId, scope.accountId);
  // `is_public` as a bare predicate (not `= true`) so the partial public indexes match it.
  return scope.publicOnly ? and(own, sql`${products.isPublic}`)! : own;
}

/** Another account's product, or a private one seen through the unauth token, is a 404: its existence is not disclosed. */
export async function getProduct(db: Db, scope: ProductScope, id: string): Promise<ProductRow> {
  const [row] = await db.select().from(products).where(and(eq(products.id, id), scopeWhere(scope)));
  if (!row) throw notFound("Product");
  return row;
}

const SORT_COLUMNS = { created_at: products.createdAt, updated_at: products.updatedAt, name: products.name } as const;

/** The query one keyset step runs; exported so the benchmark can EXPLAIN exactly what the API executes. */
export function productPageQuery(db: Db, scope: ProductScope, q: ProductListQuery, step: KeysetStep) {
  const { where, orderBy } = keysetSql(SORT_COLUMNS[q.sortBy], products.id, q.sortBy, q.order, step);
  return db
    .select()
    .from(products)
    .where(and(scopeWhere(scope), q.status ? eq(products.status, q.status) : undefined, where))
    .orderBy(...orderBy)
    .limit(step.limit);
}

export async function listProducts(db: Db, scope: ProductScope, q: ProductListQuery) {
  return keysetPage(q, (step) => productPageQuery(db, scope, q, step), (row) => rowKey(row, q.sortBy));
}

export async function updateProduct(db: Db, accountId: string, id: string, patch: UpdateProductInput) {
  try {
    const [row] = await db
      .update(products)
      .set({ ...columnsFrom(patch), updatedAt: sql`now()` })
      .where(and(eq(products.id, id), eq(products.accountId, accountId)))
      .returning();
    if (!row) throw notFound("Product");
    return toPublicProduct(row);
  } catch (err) {
    if (isUniqueViolation(err, "products_account_sku_key")) throw skuTaken(patch.sku ?? "");
    throw err;
  }
}

const inUse = (n: number | null) =>
  conflict(
    "PRODUCT_IN_USE",
    `${n === null ? "Projects use" : `${n} project${n === 1 ? " uses" : "s use"}`} this product. Archive it instead (PATCH status "archived"), or delete those projects first.`,
  );

/** Refused with 409 while projects use the product; the foreign key closes the race with a concurrent project create. */
export async function deleteProduct(db: Db, accountId: string, id: string): Promise<void> {
  await getProduct(db, { accountId, publicOnly: false }, id);
  const [used] = await db.select({ n: count() }).from(projects).where(eq(projects.productId, id));
  if (used && used.n > 0) throw inUse(used.n);
  try {
    const [row] = await db
      .delete(products)
      .where(and(eq(products.id, id), eq(products.accountId, accountId)))
      .returning({ id: products.id });
    if (!row) throw notFound("Product");
  } catch (err) {
    if (isForeignKeyViolation(err)) throw inUse(null);
    throw err;
  }
}
