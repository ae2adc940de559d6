import { and, count, desc, eq, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/lib/foundation/db/types";
import { fixJobs } from "@/lib/foundation/db/schema";
import { pageQuery } from "@/lib/foundation/http/pagination";
import { toPublicFixJob } from "./public-job";
import { FIX_JOB_STATUSES, fixJobResponse } from "./schemas";

/** GET /v1/services/preflight/ai-jobs: the page window and an optional status filter. */
export const listFixJobsQuery = pageQuery.extend({
  status: z.enum(FIX_JOB_STATUSES, { error: `status must be one of ${FIX_JOB_STATUSES.join(", ")}.` }).optional(),
  /** Only the jobs of one checked file (the studio's report page finds its job again after a reload). */
  preflightReportId: z.string().min(1).max(100).optional(),
});

/** One AI fix job in the list: the fields GET /v1/services/preflight/ai-jobs/{jobId} returns (camelCase, as the contract's AI fix jobs). */
export const fixJobListItem = fixJobResponse;

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
