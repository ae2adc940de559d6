import type { preflightReports } from "@/lib/foundation/db/schema";
import { OUTPUT_URL_TTL_SECONDS, storage } from "@/lib/domain/storage";

type Row = typeof preflightReports.$inferSelect;

/**
 * A report as the API returns it (camelCase, as the contract says for
 * preflight). Lists leave out the issues and the file URL; get and create
 * carry everything, including a signed URL of the checked file (24 hours).
 */
export async function toPublicReport(row: Row, opts: { withIssues: boolean }) {
  const issues = row.issues;
  const summary = {
    errors: issues.filter((i) => i.severity === "error").length,
    warnings: issues.filter((i) => i.severity === "warning").length,
    infos: issues.filter((i) => i.severity === "info").length,
  };
  const base = {
    reportId: row.id,
    designId: row.designId,
    status: row.status as "pass" | "warning" | "fail",
    fileType: row.fileType,
    fileSize: row.fileSize,
    summary,
    createdAt: row.createdAt.toISOString(),
  };
  if (!opts.withIssues) return base;
  const { previewKey, ...file } = row.facts;
  return {
    ...base,
    fileUrl: await storage().signedUrl(row.fileStorageKey, OUTPUT_URL_TTL_SECONDS),
    /** Rasters: an upright sRGB JPEG/PNG of at most 1600 px a side, for showing in a browser. */
    previewUrl: previewKey ? await storage().signedUrl(previewKey, OUTPUT_URL_TTL_SECONDS) : null,
    file,
    checkedAgainst: row.params,
    analysisMs: row.analysisMs,
    issues,
  };
}
