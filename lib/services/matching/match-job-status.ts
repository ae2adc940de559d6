import { and, count, desc, eq, inArray } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { matchFiles, matchJobs } from "@/lib/foundation/db/schema";
import { notFound } from "@/lib/foundation/http/api-error";

type MatchJobRow = typeof matchJobs.$inferSelect;

export async function requireMatchJob(db: Db, accountId: string, matchJobId: number): Promise<MatchJobRow> {
  const [job] = await db.select().from(matchJobs).where(and(eq(matchJobs.id, matchJobId), eq(matchJobs.accountId, accountId)));
  if (!job) throw notFound("Match job");
  return job;
}

type DecisionCounts = { matched: number; needs_review: number; unmatched: number; failed: number };

/** Photos per decision (a photo's decision is its best face's), failed photos apart, for several match jobs in one query. */
async function countDecisionsOf(db: Db, matchJobIds: number[]): Promise<Map<number, DecisionCounts>> {
  const byJob = new Map(matchJobIds.map((id) => [id, { matched: 0, needs_review: 0, unmatched: 0, failed: 0 }]));
  if (matchJobIds.length === 0) return byJob;
  const rows = await db
    .select({ matchJobId: matchFiles.matchJobId, status: matchFiles.status, decision: matchFiles.decision, n: count() })
    .from(matchFiles)
    .where(inArray(matchFiles.matchJobId, matchJobIds))
    .groupBy(matchFiles.matchJobId, matchFiles.status, matchFiles.decision);
  for (const r of rows) {
    const counts = byJob.get(r.matchJobId)!;
    if (r.status === "failed") counts.failed += r.n;
    else if (r.status === "completed" && r.decision) counts[r.decision] += r.n;
  }
  return byJob;
}

export async function countDecisions(db: Db, matchJobId: number): Promise<DecisionCounts> {
  return (await countDecisionsOf(db, [matchJobId])).get(matchJobId)!;
}

/** The contract's match job (2.9) and what a client polling it needs besides. */
export async function toPublicMatchJob(db: Db, job: MatchJobRow, counts?: DecisionCounts) {
  return {
    id: job.id,
    task_id: job.taskId,
    agency_id: job.agencyId,
    job_id: job.jobId,
    status: job.status,
    threshold: Math.round(job.threshold * 100) / 100,
    total_files: job.totalFiles,
    processed_files: job.processedFiles,
    ...(counts ?? (await countDecisions(db, job.id))),
    tokens_deducted: job.tokensDebited,
    tokens_refunded: job.tokensRefunded,
    wallet_transaction_id: job.walletTransactionId,
    refund_transaction_id: job.refundTransactionId,
    error: job.errorMessage,
    created_at: job.createdAt.toISOString(),
    completed_at: job.completedAt?.toISOString() ?? null,
  };
}

export async function getMatchJob(db: Db, accountId: string, matchJobId: number) {
  return toPublicMatchJob(db, await requireMatchJob(db, accountId, matchJobId));
}

export async function getMatchJobByTask(db: Db, accountId: string, taskId: string) {
  const [job] = await db.select().from(matchJobs).where(and(eq(matchJobs.taskId, taskId), eq(matchJobs.accountId, accountId)));
  return job ? { type: "match_job" as const, ...(await toPublicMatchJob(db, job)) } : null;
}

/** The account's match jobs, newest first. */
export async function listMatchJobs(db: Db, accountId: string, page: { limit: number; offset: number }, agencyId?: number) {
  const where = agencyId ? and(eq(matchJobs.accountId, accountId), eq(matchJobs.agencyId, agencyId)) : eq(matchJobs.accountId, accountId);
  const [rows, [total]] = await Promise.all([
    db.select().from(matchJobs).where(where).orderBy(desc(matchJobs.id)).limit(page.limit).offset(page.offset),
    db.select({ n: count() }).from(matchJobs).where(where),
  ]);
  // One query counts every listed job's photos.
  const counts = await countDecisionsOf(db, rows.map((r) => r.id));
  return { items: await Promise.all(rows.map((r) => toPublicMatchJob(db, r, counts.get(r.id)))), total: total?.n ?? 0 };
}
