import { storage } from "@/lib/domain/storage";
import { isImageInputError } from "@/lib/engines/ml/background-removal";
import { BgRemoveInputError, BgRemoveTransientError } from "./job-errors";
import { bgRemovalProvider } from "./provider";
import { outputKey } from "./storage-keys";
import { toQualityField } from "./quality";

type Job = { id: string; accountId: string; subjectType: string; edgeSoftness: number; highDetailMode: boolean; outputBackground: string };

/** Runs the model on the stored source and stores the PNG; returns what the completion step records. */
export async function cutOutJob(job: Job, sourceKey: string, signal?: AbortSignal) {
  const t0 = performance.now();
  const source = await storage().get(sourceKey);
  const sourceReadMs = Math.round(performance.now() - t0);
  if (!source) throw new BgRemoveInputError("The source image no longer exists in storage; upload it again.");
  const provider = bgRemovalProvider();
  let result;
  try {
    result = await provider.removeBackground(
      source.body,
      {
        subjectType: job.subjectType as Parameters<typeof provider.removeBackground>[1]["subjectType"],
        edgeSoftness: job.edgeSoftness,
        highDetail: job.highDetailMode,
        background: job.outputBackground === "white" ? "white" : "transparent",
      },
      signal,
    );
  } catch (err) {
    if (signal?.aborted) throw signal.reason;
    if (isImageInputError(err)) throw new BgRemoveInputError(err.message);
    console.error(`[bg-remove] ${provider.name} failed on job ${job.id}:`, err);
    throw new BgRemoveTransientError("The background removal engine failed on our side while processing this image.", { cause: err });
  }
  const key = outputKey(job.accountId, job.id);
  const t1 = performance.now();
  await storage().put(key, result.png, "image/png");
  const storeMs = Math.round(performance.now() - t1);
  return {
    key,
    width: result.width,
    height: result.height,
    provider: result.provider,
    quality: toQualityField(result.quality),
    timingsMs: { sourceRead: sourceReadMs, ...result.timingsMs, store: storeMs },
  };
}
