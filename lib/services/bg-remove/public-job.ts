import type { bgRemoveJobs } from "@/lib/foundation/db/schema";
import { OUTPUT_URL_TTL_SECONDS, storage } from "@/lib/domain/storage";
import { FILES_PATH_PREFIX, verifyFileUrl } from "@/lib/domain/storage/sign-url";

type Row = typeof bgRemoveJobs.$inferSelect;

/** The create response (contract 4.1): exactly the fields it lists. */
export function toCreatedBgRemoveJob(row: Row) {
  return {
    job_id: row.id,
    status: row.status,
    output_url: null,
    tokens_deducted: row.tokensDeducted,
    wallet_transaction_id: row.walletTransactionId,
    provider: row.provider,
    created_at: row.createdAt.toISOString(),
  };
}

/** The cut-out's file name when downloaded: the source's name (`beach.jpg` → `beach-cutout.png`), or the job id when it had none. */
export const cutoutFileName = (row: Pick<Row, "id" | "sourceName">) => {
  const stem = row.sourceName?.replace(/\.[^.]+$/, "").replace(/[\\/:*?"<>|]+/g, "_").trim();
  return stem ? `${stem}-cutout.png` : `cutout-${row.id}.png`;
};

/**
 * The source picture again, when it is one of our own upload URLs: a signature
 * only we can make proves the key is ours even after the URL expired, so the
 * history keeps showing the original. Anyone else's URL is given back as sent.
 */
async function sourceUrl(imageUrl: string): Promise<string> {
  try {
    const own = storage().keyFromOwnUrl(imageUrl);
    if (own) return await storage().signedUrl(own, OUTPUT_URL_TTL_SECONDS);
    const check = verifyFileUrl(imageUrl);
    if (check && !check.ok && check.reason === "expired") {
      const key = decodeURIComponent(new URL(imageUrl).pathname.slice(FILES_PATH_PREFIX.length));
      return await storage().signedUrl(key, OUTPUT_URL_TTL_SECONDS);
    }
  } catch {
    // Not a URL of ours after all: give it back as sent.
  }
  return imageUrl;
}

/**
 * The job as GET returns it (contract 2.2); output_url is signed afresh, valid 24 hours.
 * Beyond the contract: download_url (the same PNG served as an attachment) and
 * source_url (the original, re-signed when it is one of our uploads).
 */
export async function toPublicBgRemoveJob(row: Row) {
  const done = row.status === "completed" && row.outputKey;
  const [outputUrl, downloadUrl, source] = await Promise.all([
    done ? storage().signedUrl(row.outputKey!, OUTPUT_URL_TTL_SECONDS) : null,
    done ? storage().signedUrl(row.outputKey!, OUTPUT_URL_TTL_SECONDS, { downloadName: cutoutFileName(row) }) : null,
    sourceUrl(row.imageUrl),
  ]);
  return {
    job_id: row.id,
    status: row.status,
    subject_type: row.subjectType,
    edge_softness: row.edgeSoftness,
    high_detail_mode: row.highDetailMode,
    output_background: row.outputBackground,
    output_url: outputUrl,
    download_url: downloadUrl,
    source_url: source,
    source_name: row.sourceName,
    download_name: cutoutFileName(row),
    output_size: row.outputWidth && row.outputHeight ? { width: row.outputWidth, height: row.outputHeight } : null,
    quality: done ? (row.quality ?? null) : null,
    tokens_deducted: row.tokensDeducted,
    wallet_transaction_id: row.walletTransactionId,
    provider: row.provider,
    created_at: row.createdAt.toISOString(),
    completed_at: row.completedAt?.toISOString() ?? null,
    error_message: row.errorMessage,
  };
}

export type PublicBgRemoveJob = Awaited<ReturnType<typeof toPublicBgRemoveJob>>;
