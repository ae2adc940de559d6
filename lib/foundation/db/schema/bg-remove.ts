import { boolean, index, integer, jsonb, pgEnum, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";

/** The job's `quality` as stored and as the API returns it (snake_case, contract style). */
export type BgRemoveQuality = {
  people_kept: number | null;
  doubtful_regions: { reason: string; left: number; top: number; width: number; height: number; area: number }[];
  needs_review: boolean;
};

export const bgRemoveStatusEnum = pgEnum("bg_remove_status", ["pending", "processing", "completed", "failed"]);

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/** Background removal jobs (POST /v1/services/bg-remove), one per image. */
export const bgRemoveJobs = pgTable(
  "bg_remove_jobs",
  {
    /** `job_...` */
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    status: bgRemoveStatusEnum("status").notNull().default("processing"),
    imageUrl: text("image_url").notNull(),
    /** The source's file name (an upload's original name, or the URL's last segment): downloads are named after it. */
    sourceName: text("source_name"),
    subjectType: text("subject_type").notNull(),
    edgeSoftness: integer("edge_softness").notNull(),
    highDetailMode: boolean("high_detail_mode").notNull(),
    outputBackground: text("output_background").notNull(),
    /** The engine that ran (or will run) the job. */
    provider: text("provider").notNull(),
    tokensDeducted: integer("tokens_deducted").notNull(),
    /** The debit's ledger id (`wtx_...`); the refund of a failed job references it. */
    walletTransactionId: text("wallet_transaction_id").notNull(),
    /** Storage key of the result PNG once completed. */
    outputKey: text("output_key"),
    outputWidth: integer("output_width"),
    outputHeight: integer("output_height"),
    errorMessage: text("error_message"),
    /** The engine's own doubt about the cut-out (lib/services/bg-remove/quality.ts), as the API shows it; null before completion and for jobs completed before it existed. */
    quality: jsonb("quality").$type<BgRemoveQuality>(),
    createdAt: ts("created_at").notNull().defaultNow(),
    completedAt: ts("completed_at"),
    /** When the job ended failed (completed_at is only for completed jobs, as the contract says). */
    failedAt: ts("failed_at"),
  },
  (t) => [index("bg_remove_jobs_account_created_idx").on(t.accountId, t.createdAt)],
);
