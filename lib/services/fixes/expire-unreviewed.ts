import { and, eq, lt } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { fixJobs } from "@/lib/foundation/db/schema";
import { config } from "@/lib/foundation/config";
import { storage } from "@/lib/domain/storage";
import { endFixJobWithRefund } from "./finish-job";

/**
 * AI fix jobs created with options.review that nobody approved or rejected within
 * AI_FIX_REVIEW_HOURS: failed with a message saying so, refunded once, their staged
 * output deleted. Run by the hourly sweep; a job approved or rejected meanwhile is
 * left alone (its status is read again under the row lock).
 */
export async function expireUnreviewedFixJobs(db: Db, now = new Date()): Promise<number> {
  const hours = config().AI_FIX_REVIEW_HOURS;
  const cutoff = new Date(now.getTime() - hours * 3_600_000);
  const stale = await db
    .select({ id: fixJobs.id, accountId: fixJobs.accountId })
    .from(fixJobs)
    .where(and(eq(fixJobs.status, "awaiting_approval"), lt(fixJobs.createdAt, cutoff)))
    .limit(500);
  let expired = 0;
  for (const job of stale) {
    const ended = await db.transaction(async (tx) => {
      const [row] = await tx.select({ status: fixJobs.status }).from(fixJobs).where(eq(fixJobs.id, job.id)).for("update");
      if (row?.status !== "awaiting_approval") return null;
      return endFixJobWithRefund(tx, {
        jobId: job.id,
        accountId: job.accountId,
        status: "failed",
        message: `Nobody approved or rejected this fix within ${hours} hours, so it expired and its tokens were refunded. Start it again to apply it.`,
      });
    });
    if (!ended) continue;
    expired++;
    if (ended.job?.outputKey) await storage().delete(ended.job.outputKey).catch(() => {});
  }
  return expired;
}
