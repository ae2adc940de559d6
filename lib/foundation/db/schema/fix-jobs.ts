import { sql } from "drizzle-orm";
import { boolean, check, index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/** One fix as planned (a suggestion) or as applied, with the parameters it ran with. */
export type FixStepRecord = {
  fixType: string;
  /** PDF prepress steps run by the engine for this job (embed_fonts, rgb_to_cmyk ...). */
  prepressSteps?: string[];
  params: Record<string, unknown>;
  /** What it did, in words, for people. */
  description: string;
  /** Set when the fix was asked for but had nothing to do or was covered by another. */
  skipped?: string;
};

/** The corrected file checked again by the same preflight. */
export type FixRecheckRecord = {
  reportId: string;
  status: "pass" | "warning" | "fail";
  /** Issue codes of the original report that are gone. */
  resolved: string[];
  /** Issue codes still present (with the fixable ones flagged in `unfixed`). */
  remaining: string[];
  /** Codes the job set out to fix that are still there: a defect of the fix. */
  unfixed: string[];
  /** Problems of the checked file an AI fix cannot repair, still in the file, each with why (issue 33). */
  notFixable?: { code: string; page?: number; message: string }[];
};

/**
 * AI fix jobs (POST /v1/services/preflight/ai-jobs): a preflight report's file
 * corrected by sharp (rasters), pdf-lib (PDF bleed) or Ghostscript (PDF
 * prepress), then checked again. Priced flat per job, debited at creation.
 */
export const fixJobs = pgTable(
  "fix_jobs",
  {
    /** `job_...` */
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    /** The report it was made from; not a foreign key: deleting the report leaves the job's history. */
    reportId: text("report_id").notNull(),
    /** analyzing | awaiting_approval | applying | completed | failed | rejected */
    status: text("status").notNull(),
    /** raster | pdf */
    fileKind: text("file_kind").notNull(),
    /** Price tier: raster | pdf_bleed | pdf_prepress. */
    tier: text("tier").notNull(),
    /** The fix types asked for (or derived from the report). */
    fixTypes: jsonb("fix_types").$type<string[]>().notNull(),
    prepressSteps: jsonb("prepress_steps").$type<string[]>().notNull(),
    targetDpi: integer("target_dpi").notNull(),
    /** options.review: stop after analysis for approve/reject. */
    review: boolean("review").notNull().default(false),
    /** Planned fixes (review mode: what approve applies), with preview picture keys. */
    suggestions: jsonb("suggestions").$type<FixStepRecord[]>(),
    /** Storage keys of the before/after preview pictures. */
    beforePreviewKey: text("before_preview_key"),
    afterPreviewKey: text("after_preview_key"),
    /** How many pages each preview has (a PDF's every page up to MAX_PREVIEW_PAGES; page n > 1 at previewKey(…, n)); null: one. */
    beforePreviewPages: integer("before_preview_pages"),
    afterPreviewPages: integer("after_preview_pages"),
    /** The fix types approved (a subset of the suggestions), null until approved. */
    approvedFixTypes: jsonb("approved_fix_types").$type<string[]>(),
    applied: jsonb("applied").$type<FixStepRecord[]>(),
    /** PDF prepress: pages turned into one 600 ppi image because they use transparency. */
    flattenedPages: jsonb("flattened_pages").$type<number[]>(),
    /** Which engine ran the prepress (gs-system | gs-wasm), for support. */
    engine: text("engine"),
    tokensDeducted: integer("tokens_deducted").notNull(),
    walletTransactionId: text("wallet_transaction_id").notNull(),
    outputKey: text("output_key"),
    outputMime: text("output_mime"),
    recheck: jsonb("recheck").$type<FixRecheckRecord>(),
    errorMessage: text("error_message"),
    createdAt: ts("created_at").notNull().defaultNow(),
    completedAt: ts("completed_at"),
    failedAt: ts("failed_at"),
  },
  (t) => [
    index("fix_jobs_account_created_idx").on(t.accountId, t.createdAt),
    check("fix_jobs_status", sql`${t.status} IN ('analyzing', 'awaiting_approval', 'applying', 'completed', 'failed', 'rejected')`),
  ],
);
