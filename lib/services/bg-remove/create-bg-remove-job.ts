import type { Db } from "@/lib/foundation/db/types";
import { bgRemoveJobs } from "@/lib/foundation/db/schema";
import { newId } from "@/lib/foundation/ids";
import { checkSourceUrl } from "@/lib/domain/sources/fetch-source";
import { describeSource } from "@/lib/domain/uploads/own-upload";
import { ApiError } from "@/lib/foundation/http/api-error";
import { engineConfig } from "@/lib/engines/ml/background-removal/engine-config";
import { debitTokens } from "@/lib/domain/wallet/debit-tokens";
import { startJob } from "@/lib/domain/jobs/start-job";
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
  // One of the account's uploads is measured now: a photo over the engine's limit is refused before it is charged.
  const source = await describeSource(db, accountId, input.image_url);
  const { maxPixels } = engineConfig();
  if (source.pixels && source.pixels.width * source.pixels.height > maxPixels) {
    const mp = (n: number) => (n / 1e6).toFixed(n >= 10e6 ? 0 : 1);
    const { width, height } = source.pixels;
    throw new ApiError(400, "IMAGE_TOO_LARGE", `The image is ${width} × ${height} pixels (${mp(width * height)} megapixels); background removal accepts up to ${mp(maxPixels)} megapixels. Resize it and try again; nothing was charged.`, {
      fields: [{ field: "image_url", message: `Over ${mp(maxPixels)} megapixels.` }],
    });
  }
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
        sourceName: source.name,
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
