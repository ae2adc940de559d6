import type { fixJobs } from "@/lib/foundation/db/schema";
import { OUTPUT_URL_TTL_SECONDS, storage } from "@/lib/domain/storage";
import { previewKey } from "./storage-keys";

type Row = typeof fixJobs.$inferSelect;

const EXT: Record<string, string> = { "image/jpeg": "jpg", "image/png": "png", "image/tiff": "tif", "application/pdf": "pdf" };

/**
 * The job as GET returns it: the contract's fields (jobId, status,
 * correctedFileUrl, tokensDeducted, completedAt) and what a client needs
 * beside them (docs/api.md, AI fix jobs). URLs are signed afresh, 24 hours.
 */
export async function toPublicFixJob(row: Row) {
  const sign = (key: string | null, downloadName?: string) => (key ? storage().signedUrl(key, OUTPUT_URL_TTL_SECONDS, downloadName ? { downloadName } : undefined) : Promise.resolve(null));
  const done = row.status === "completed";
  return {
    jobId: row.id,
    status: row.status,
    preflightReportId: row.reportId,
    correctedFileUrl: done ? await sign(row.outputKey, `corrected-${row.reportId}.${EXT[row.outputMime ?? ""] ?? "bin"}`) : null,
    correctedFileType: done ? row.outputMime : null,
    tokensDeducted: row.tokensDeducted,
    estimatedTokenCost: { min: row.tokensDeducted, max: row.tokensDeducted },
    tier: row.tier,
    fixTypes: row.fixTypes,
    prepressSteps: row.prepressSteps,
    targetDpi: row.targetDpi,
    review: row.review,
    suggestions: row.suggestions ?? null,
    approvedFixTypes: row.approvedFixTypes ?? null,
    fixesApplied: row.applied ?? null,
    flattenedPages: row.flattenedPages ?? null,
    preview: await previewOf(row, sign),
    recheck: row.recheck ?? null,
    errorMessage: row.errorMessage,
    createdAt: row.createdAt.toISOString(),
    completedAt: row.completedAt?.toISOString() ?? null,
  };
}

/** Page 1 as before (beforeUrl, afterUrl), and every page drawn, side by side by page number. */
async function previewOf(row: Row, sign: (key: string | null) => Promise<string | null>) {
  const count = (key: string | null, pages: number | null) => (key ? (pages ?? 1) : 0);
  const before = count(row.beforePreviewKey, row.beforePreviewPages);
  const after = count(row.afterPreviewKey, row.afterPreviewPages);
  const pages = [];
  for (let page = 1; page <= Math.max(before, after); page++) {
    pages.push({
      page,
      beforeUrl: page <= before ? await sign(previewKey(row.accountId, row.id, "before", page)) : null,
      afterUrl: page <= after ? await sign(previewKey(row.accountId, row.id, "after", page)) : null,
    });
  }
  return { beforeUrl: await sign(row.beforePreviewKey), afterUrl: await sign(row.afterPreviewKey), pages };
}

export type PublicFixJob = Awaited<ReturnType<typeof toPublicFixJob>>;
