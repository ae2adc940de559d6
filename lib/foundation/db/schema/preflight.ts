import { sql } from "drizzle-orm";
import { bigint, check, date, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";

/** What the stored report keeps about the file, for the viewer and for AI fix jobs. */
export type PreflightFileFacts = {
  /** Raster: pixel size (after EXIF orientation). */
  widthPx?: number;
  heightPx?: number;
  /** PDF: one entry per page (capped for very long documents), boxes in points [x0, y0, x1, y1]. */
  pages?: { page: number; mediaBox: number[]; trimBox: number[]; bleedBox: number[] }[];
  pageCount?: number;
  /** Storage key of the viewer's preview of a raster (not returned as is: the API signs it). */
  previewKey?: string;
};

/** One issue of a report; `fixTypes` are the AI fix types that can repair it (possibly none). */
export type PreflightIssueRecord = {
  code: string;
  severity: "error" | "warning" | "info";
  message: string;
  page?: number;
  /** In the page's user space (PDF points, origin bottom-left) or in pixels for rasters (origin top-left). */
  box?: { x: number; y: number; width: number; height: number; unit: "pt" | "px" };
  details: Record<string, unknown>;
  fixTypes: string[];
};

/** The inputs a check was run with, so a fix job can re-derive targets (DPI, bleed, colour mode, canvas). */
export type PreflightCheckParams = {
  declaredFileType?: string;
  productType?: string;
  canvasWidthInches?: number;
  canvasHeightInches?: number;
  requiredDpi?: number;
  /** "productProfile", "productType" (its minimum from the DPI table) or "default" (300). */
  requiredDpiSource?: string;
  requiredColorMode?: string;
  bleedMm?: number;
};

/**
 * Full preflight checks. The checked file is copied into storage (`fileStorageKey`)
 * so the viewer can render it and a fix job can work on exactly what was checked;
 * deleting the report deletes that copy.
 */
export const preflightReports = pgTable(
  "preflight_reports",
  {
    /** `rpt_...` from newId("rpt"). */
    id: text("id").primaryKey(),
    /** Insertion order, for stable newest-first pagination. */
    seq: bigint("seq", { mode: "number" }).generatedAlwaysAsIdentity(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    /** The caller's own reference (1 to 200 characters). */
    designId: text("design_id").notNull(),
    /** pass | warning | fail (see docs/api.md, Preflight). */
    status: text("status").notNull(),
    /** Decided by the file's bytes: jpeg | png | tiff | pdf. */
    fileType: text("file_type").notNull(),
    fileMime: text("file_mime").notNull(),
    fileSize: integer("file_size").notNull(),
    fileStorageKey: text("file_storage_key").notNull(),
    params: jsonb("params").$type<PreflightCheckParams>().notNull(),
    facts: jsonb("facts").$type<PreflightFileFacts>().notNull(),
    issues: jsonb("issues").$type<PreflightIssueRecord[]>().notNull(),
    /** How long the analysis took, for operators. */
    analysisMs: integer("analysis_ms").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    index("preflight_reports_account_seq_idx").on(t.accountId, t.seq),
    check("preflight_reports_status", sql`${t.status} IN ('pass', 'warning', 'fail')`),
    check("preflight_reports_file_type", sql`${t.fileType} IN ('jpeg', 'png', 'tiff', 'pdf')`),
  ],
);

/**
 * Full checks counted per account per calendar month (UTC). A separate counter,
 * not a count of reports, so deleting reports does not give the quota back.
 */
export const preflightUsage = pgTable(
  "preflight_usage",
  {
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    /** First day of the UTC month. */
    periodStart: date("period_start", { mode: "string" }).notNull(),
    checks: integer("checks").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.periodStart] }), check("preflight_usage_non_negative", sql`${t.checks} >= 0`)],
);
