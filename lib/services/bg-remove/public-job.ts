import type { bgRemoveJobs } from "@/lib/db/schema";
import { OUTPUT_URL_TTL_SECONDS, storage } from "@/lib/storage";

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

/** The job as GET returns it (contract 2.2); output_url is signed afresh, valid 24 hours. */
export async function toPublicBgRemoveJob(row: Row) {
  const outputUrl = row.status === "completed" && row.outputKey ? await storage().signedUrl(row.outputKey, OUTPUT_URL_TTL_SECONDS) : null;
  return {
    job_id: row.id,
    status: row.status,
    subject_type: row.subjectType,
    edge_softness: row.edgeSoftness,
    high_detail_mode: row.highDetailMode,
    output_background: row.outputBackground,
    output_url: outputUrl,
    tokens_deducted: row.tokensDeducted,
    wallet_transaction_id: row.walletTransactionId,
    provider: row.provider,
    created_at: row.createdAt.toISOString(),
    completed_at: row.completedAt?.toISOString() ?? null,
    error_message: row.errorMessage,
  };
}

export type PublicBgRemoveJob = Awaited<ReturnType<typeof toPublicBgRemoveJob>>;
