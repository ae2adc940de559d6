import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { preflightUsage } from "@/lib/foundation/db/schema";
import { ApiError } from "@/lib/foundation/http/api-error";
import { preflightConfig } from "./preflight-config";

/** The UTC calendar month a moment falls in, and when the next one starts. */
export function quotaPeriod(now = new Date()): { periodStart: string; resetsAt: Date } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { periodStart: start.toISOString().slice(0, 10), resetsAt: next };
}

export function monthlyLimit(plan: "free" | "premium"): number {
  const c = preflightConfig();
  return plan === "premium" ? c.PREFLIGHT_QUOTA_PREMIUM : c.PREFLIGHT_QUOTA_FREE;
}

export type QuotaReservation = { accountId: string; periodStart: string };

/**
 * Counts one full check against the month's quota, atomically: the increment
 * only happens while the count is under the limit, so concurrent requests can
 * never push an account past it. Past the limit: the contract's-style 402
 * `{ error: "PLAN_QUOTA_EXCEEDED", limit, used, resets_at }`. No tokens move.
 */
export async function reserveCheck(db: Db, accountId: string, plan: "free" | "premium", now = new Date()): Promise<QuotaReservation> {
  const limit = monthlyLimit(plan);
  const { periodStart, resetsAt } = quotaPeriod(now);
  const rows =
    limit > 0
      ? await db
          .insert(preflightUsage)
          .values({ accountId, periodStart, checks: 1 })
          .onConflictDoUpdate({
            target: [preflightUsage.accountId, preflightUsage.periodStart],
            set: { checks: sql`${preflightUsage.checks} + 1` },
            setWhere: sql`${preflightUsage.checks} < ${limit}`,
          })
          .returning({ checks: preflightUsage.checks })
      : [];
  if (rows.length > 0) return { accountId, periodStart };
  const used = await usedChecks(db, accountId, periodStart);
  throw new ApiError(
    402,
    "PLAN_QUOTA_EXCEEDED",
    `The ${plan} plan includes ${limit} preflight checks a month and ${used} have been used; the quota resets on ${resetsAt.toISOString().slice(0, 10)}.`,
    undefined,
    { limit, used, resets_at: resetsAt.toISOString() },
  );
}

/** Gives a reserved check back when no report came of it (bad URL, unreadable type, timeout). */
export async function releaseCheck(db: Db, r: QuotaReservation): Promise<void> {
  await db
    .update(preflightUsage)
    .set({ checks: sql`${preflightUsage.checks} - 1` })
    .where(and(eq(preflightUsage.accountId, r.accountId), eq(preflightUsage.periodStart, r.periodStart), sql`${preflightUsage.checks} > 0`));
}

export async function usedChecks(db: Db, accountId: string, periodStart = quotaPeriod().periodStart): Promise<number> {
  const [row] = await db
    .select({ checks: preflightUsage.checks })
    .from(preflightUsage)
    .where(and(eq(preflightUsage.accountId, accountId), eq(preflightUsage.periodStart, periodStart)));
  return row?.checks ?? 0;
}

/** The account's quota this month, for the studio and list responses. */
export async function quotaStatus(db: Db, accountId: string, plan: "free" | "premium") {
  const { periodStart, resetsAt } = quotaPeriod();
  return { limit: monthlyLimit(plan), used: await usedChecks(db, accountId, periodStart), resetsAt: resetsAt.toISOString() };
}
