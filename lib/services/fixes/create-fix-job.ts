import type { Db } from "@/lib/foundation/db/types";
import { fixJobs } from "@/lib/foundation/db/schema";
import { newId } from "@/lib/foundation/ids";
import { debitTokens } from "@/lib/domain/wallet/debit-tokens";
import { startJob } from "@/lib/domain/jobs/start-job";
import { getReportRow } from "@/lib/services/preflight/reports";
import { FIX_OPERATION } from "./pricing";
import { planFixJob } from "./plan-fix-job";
import type { CreateFixJobBody } from "./schemas";

/**
 * Accepts an AI fix job: the report is looked up in the caller's account (404
 * otherwise) and the plan decided (every refusal is a 400 and costs nothing);
 * then the flat price, the job row and the job's start commit in one
 * transaction. The work runs in inngest/fixes.ts.
 */
export async function createFixJob(db: Db, accountId: string, body: CreateFixJobBody) {
  const report = await getReportRow(db, accountId, body.preflightReportId);
  const plan = planFixJob(report, body.options);
  const row = await db.transaction(async (tx) => {
    const id = newId("job");
    const debit = await debitTokens(tx, { accountId, amount: plan.price, operation: FIX_OPERATION, reference: id });
    const [job] = await tx
    .insert(fixJobs)
    .values({
      id,
      accountId,
      reportId: report.id,
      status: "analyzing",
      fileKind: plan.fileKind,
      tier: plan.tier,
      fixTypes: plan.fixTypes,
      prepressSteps: plan.prepressSteps,
      targetDpi: plan.targetDpi,
      review: body.options?.review ?? false,
      tokensDeducted: plan.price,
      walletTransactionId: debit.id,
    })
    .returning();
    await startJob(tx, { name: "ai-fix/job.requested", data: { jobId: id, accountId } });
    return job!;
  });
  return {
    jobId: row.id,
    status: row.status,
    // Flat price, already debited: min and max are equal. They exist because the
    // contract's shape allows a range (a future per-fix price); today's client can show either.
    estimatedTokenCost: { min: row.tokensDeducted, max: row.tokensDeducted },
    tokensDeducted: row.tokensDeducted,
    tier: row.tier,
    fixTypes: row.fixTypes,
    prepressSteps: row.prepressSteps,
    targetDpi: row.targetDpi,
    review: row.review,
  };
}
