import { sql } from "drizzle-orm";
import { boolean, check, doublePrecision, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { preflightReports } from "./preflight";

// Millisecond precision (not PostgreSQL's default microseconds) so a timestamp
// survives a round trip through a JavaScript Date exactly: list cursors carry
// `created_at`/`updated_at` values and compare them with the stored ones.
const stamp = (name: string) => timestamp(name, { withTimezone: true, mode: "date", precision: 3 }).notNull().defaultNow();

/**
 * A print shop's sellable product. Enumerations are text + CHECK rather than
 * pgEnum: enum type names are global to the database and other areas define
 * their own (preflight's product types, for one).
 */
export const products = pgTable(
  "products",
  {
    /** `prd_...` */
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    sku: text("sku").notNull(),
    name: text("name").notNull(),
    /** The preflight product type enum (contract 4.2). */
    productType: text("product_type").notNull(),
    widthIn: doublePrecision("width_in").notNull(),
    heightIn: doublePrecision("height_in").notNull(),
    bleedMm: doublePrecision("bleed_mm").notNull(),
    minPpi: integer("min_ppi").notNull(),
    colorMode: text("color_mode").notNull(),
    /** Integer minor units of `currency` (cents for USD, yen for JPY). */
    price: integer("price").notNull(),
    /** ISO 4217, upper case. */
    currency: text("currency").notNull(),
    status: text("status").notNull().default("active"),
    /** Visible through the account's unauth token (public storefront code). */
    isPublic: boolean("is_public").notNull().default(false),
    createdAt: stamp("created_at"),
    updatedAt: stamp("updated_at"),
  },
  (t) => [
    uniqueIndex("products_account_sku_key").on(t.accountId, t.sku),
    // One index per list sort, with and without the status filter; `id` is the
    // tie-breaker of every sort so keyset cursors are total orders.
    index("products_account_created_idx").on(t.accountId, t.createdAt, t.id),
    index("products_account_updated_idx").on(t.accountId, t.updatedAt, t.id),
    index("products_account_name_idx").on(t.accountId, t.name, t.id),
    index("products_account_status_created_idx").on(t.accountId, t.status, t.createdAt, t.id),
    index("products_account_status_updated_idx").on(t.accountId, t.status, t.updatedAt, t.id),
    index("products_account_status_name_idx").on(t.accountId, t.status, t.name, t.id),
    // Unauth-token (storefront) lists see public products only: partial indexes
    // keep those lists index-only in the public rows whatever the catalogue size.
    index("products_public_created_idx").on(t.accountId, t.createdAt, t.id).where(sql`${t.isPublic}`),
    index("products_public_updated_idx").on(t.accountId, t.updatedAt, t.id).where(sql`${t.isPublic}`),
    index("products_public_name_idx").on(t.accountId, t.name, t.id).where(sql`${t.isPublic}`),
    check("products_status", sql`${t.status} IN ('active', 'archived')`),
    check("products_color_mode", sql`${t.colorMode} IN ('rgb', 'cmyk', 'grayscale')`),
    check(
      "products_product_type",
      sql`${t.productType} IN ('photo_on_canvas', 'poster', 'wallpaper', 'framed_print', 'wrapping_paper', 'stock_canvas')`,
    ),
    check("products_price_non_negative", sql`${t.price} >= 0`),
    check("products_dimensions_positive", sql`${t.widthIn} > 0 AND ${t.heightIn} > 0 AND ${t.bleedMm} >= 0 AND ${t.minPpi} > 0`),
  ],
);

/** One explicit override of the preflight gate (see lib/services/core/projects.ts). */
export type PreflightOverride = {
  /** The status the project moved to: submitted or approved. */
  status: string;
  reason: string;
  report_id: string;
  /** The report's verdict and counts when the override was given. */
  report_status: string;
  errors: number;
  warnings: number;
  at: string;
};

/** A customer's job for one product, moved from draft to shipped (see project-status.ts). */
export const projects = pgTable(
  "projects",
  {
    /** `prj_...` */
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    // No ON DELETE action: a product used by projects cannot be deleted (409);
    // "no action" (checked at statement end) still lets an account's deletion cascade to both.
    productId: text("product_id")
      .notNull()
      .references(() => products.id),
    status: text("status").notNull().default("draft"),
    designFileUrl: text("design_file_url"),
    /** Deleting the report unlinks it rather than blocking the deletion. */
    preflightReportId: text("preflight_report_id").references(() => preflightReports.id, { onDelete: "set null" }),
    customerEmail: text("customer_email"),
    /**
     * Moves to submitted or approved made although the linked preflight report had
     * errors: who asked is the account; why is the reason it gave. Oldest first.
     */
    preflightOverrides: jsonb("preflight_overrides").$type<PreflightOverride[]>().notNull().default([]),
    createdAt: stamp("created_at"),
    updatedAt: stamp("updated_at"),
  },
  (t) => [
    index("projects_account_created_idx").on(t.accountId, t.createdAt, t.id),
    index("projects_account_updated_idx").on(t.accountId, t.updatedAt, t.id),
    index("projects_account_name_idx").on(t.accountId, t.name, t.id),
    index("projects_account_status_created_idx").on(t.accountId, t.status, t.createdAt, t.id),
    index("projects_account_status_updated_idx").on(t.accountId, t.status, t.updatedAt, t.id),
    index("projects_account_status_name_idx").on(t.accountId, t.status, t.name, t.id),
    // The product filter, and the "is this product used?" check before a delete.
    index("projects_product_created_idx").on(t.productId, t.createdAt, t.id),
    index("projects_preflight_report_idx").on(t.preflightReportId),
    check("projects_status", sql`${t.status} IN ('draft', 'submitted', 'approved', 'in_production', 'shipped', 'cancelled')`),
  ],
);

/**
 * The account's unauth token (X-Service-Unauth-Token). Stored in plain text on
 * purpose: it is meant to sit in public storefront code, grants read access to
 * public products only, and the studio shows it again on demand.
 */
export const coreUnauthTokens = pgTable(
  "core_unauth_tokens",
  {
    accountId: text("account_id")
      .primaryKey()
      .references(() => accounts.id, { onDelete: "cascade" }),
    token: text("token").notNull(),
    createdAt: stamp("created_at"),
  },
  (t) => [uniqueIndex("core_unauth_tokens_token_key").on(t.token)],
);
