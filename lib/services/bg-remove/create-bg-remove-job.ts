import type { Db } from "@/lib/db/types";
import { bgRemoveJobs } from "@/lib/db/schema";
import { newId } from "@/lib/ids";
import { checkSourceUrl } from "@/lib/sources/fetch-source";
import { debitTokens } from "@/lib/wallet/debit-tokens";
import { startJob } from "@/lib/jobs/start-job";
import { BG_REMOVE_COST, BG_REMOVE_OPERATION } from "./pricing";
import { bgRemovalProvider } from "./provider";
import { toCreatedBgRemoveJob } from "./public-job";
import type { CreateBgRemoveInput } from "./schemas";

/**
 * Accepts a background removal: the URL is checked first (a refused URL is a
 * 400 and costs nothing), then the debit, the job row and the job's start
 * commit in one transaction. The work itself runs in inngest/bg-remove.ts.
 */
export async function createBgRemoveJob(db: Db, accountId: string, input: CreateBgRemoveInput) {
  await checkSourceUrl(input.image_url, "image_url");
  const provider = bgRemovalProvider().name;
  const row = await db.transaction(async (tx) => {
    const id = newId("job");
    const debit = await debitTokens(tx, { accountId, amount: BG_REMOVE_COST, operation: BG_REMOVE_OPERATION, reference: id });
    const [job] = await tx
      .insert(bgRemoveJobs)
      .values({
        id,
        accountId,
        status: "processing",
        imageUrl: input.image_url,
        subjectType: input.subject_type,
        edgeSoftness: input.edge_softness,
        highDetailMode: input.high_detail_mode,
        outputBackground: input.output_background,
        provider,
        tokensDeducted: BG_REMOVE_COST,
        walletTransactionId: debit.id,
      })
      .returning();
    await startJob(tx, { name: "bg-remove/job.requested", data: { jobId: id, accountId } });
    return job!;
  });
  return toCreatedBgRemoveJob(row);
}
