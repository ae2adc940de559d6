import { and, eq, gt, isNotNull, isNull } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { billingAutoTopUpAttempts, billingAutoTopUps } from "@/lib/foundation/db/schema";
import { newId } from "@/lib/foundation/ids";
import { startJob } from "@/lib/domain/jobs/start-job";

/**
 * After a debit, in its transaction: when auto top-up is on and the balance is now
 * under its threshold, claim the one attempt an account may have under way and
 * start the job that charges the saved card. The claim is a conditional UPDATE on
 * the settings row, so concurrent debits crossing the threshold make one attempt;
 * a rolled-back debit takes its claim with it. One round trip when nothing is due.
 */
export async function claimAutoTopUp(tx: Db, accountId: string, balance: number): Promise<string | null> {
  const attemptId = newId("atu");
  const [claimed] = await tx
    .update(billingAutoTopUps)
    .set({ inFlightId: attemptId, inFlightSince: new Date(), updatedAt: new Date() })
    .where(
      and(
        eq(billingAutoTopUps.accountId, accountId),
        eq(billingAutoTopUps.enabled, true),
        isNull(billingAutoTopUps.inFlightId),
        isNotNull(billingAutoTopUps.paymentMethodId),
        isNotNull(billingAutoTopUps.packId),
        gt(billingAutoTopUps.threshold, balance),
      ),
    )
    .returning({ packId: billingAutoTopUps.packId });
  if (!claimed) return null;
  await tx.insert(billingAutoTopUpAttempts).values({ id: attemptId, accountId, packId: claimed.packId!, balanceAtTrigger: balance });
  await startJob(tx, { name: "billing/auto-top-up.requested", data: { attemptId, accountId } });
  return attemptId;
}
