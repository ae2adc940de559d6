import { and, count, desc, eq, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/lib/db/types";
import { fixJobs } from "@/lib/db/schema";
import { pageQuery } from "@/lib/http/pagination";
import { toPublicFixJob } from "./public-job";

export const FIX_JOB_STATUSES = ["analyzing", "awaiting_approval", "applying", "completed", "failed", "rejected"] as const;

/** GET /v1/services/preflight/ai-jobs: the page window and an optional status filter. */
export const listFixJobsQuery = pageQuery.extend({
  status: z.enum(FIX_JOB_STATUSES, { error: `status must be one of ${FIX_JOB_STATUSES.join(", ")}.` }).optional(),
  /** Only the jobs of one checked file (the studio's report page finds its job again after a reload). */
  preflightReportId: z.string().min(1).max(100).optional(),
});

const url = z.string().nullable();
/** One AI fix job in the list: the fields GET /v1/services/preflight/ai-jobs/{jobId} returns (camelCase, as the contract's AI fix jobs). */
export const fixJobListItem = z.object({
  jobId: z.string(),
  status: z.enum(FIX_JOB_STATUSES),
  preflightReportId: z.string(),
  correctedFileUrl: url.meta({ description: "Served as an attachment, valid 24 hours." }),
  correctedFileType: z.string().nullable(),
  tokensDeducted: z.number().int(),
  estimatedTokenCost: z.object({ min: z.number().int(), max: z.number().int() }),
  tier: z.string(),
  fixTypes: z.array(z.string()),
  prepressSteps: z.array(z.string()),
  targetDpi: z.number().int(),
  review: z.boolean(),
  suggestions: z.array(z.record(z.string(), z.unknown())).nullable(),
  approvedFixTypes: z.array(z.string()).nullable(),
  fixesApplied: z.array(z.record(z.string(), z.unknown())).nullable(),
  flattenedPages: z.array(z.number().int()).nullable(),
  recheck: z.record(z.string(), z.unknown()).nullable(),
  preview: z.object({ beforeUrl: url, afterUrl: url }),
  errorMessage: z.string().nullable(),
  createdAt: z.iso.datetime({ offset: true }),
  completedAt: z.iso.datetime({ offset: true }).nullable(),
});

/** The account's AI fix jobs, newest first. */
export async function listFixJobs(db: Db, accountId: string, filter: { status?: string; preflightReportId?: string }, page: { limit: number; offset: number }) {
  const conditions: SQL[] = [eq(fixJobs.accountId, accountId)];
  if (filter.status) conditions.push(eq(fixJobs.status, filter.status));
  if (filter.preflightReportId) conditions.push(eq(fixJobs.reportId, filter.preflightReportId));
  const where = and(...conditions);
  const [rows, [total]] = await Promise.all([
    db.select().from(fixJobs).where(where).orderBy(desc(fixJobs.createdAt), desc(fixJobs.id)).limit(page.limit).offset(page.offset),
    db.select({ n: count() }).from(fixJobs).where(where),
  ]);
  return { items: await Promise.all(rows.map(toPublicFixJob)), total: total?.n ?? 0 };
}
