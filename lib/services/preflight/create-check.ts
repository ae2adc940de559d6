import type { Db } from "@/lib/foundation/db/types";
import type { AccountRow } from "@/lib/domain/identity/public-account";
import { preflightReports } from "@/lib/foundation/db/schema";
import { config } from "@/lib/foundation/config";
import { ApiError } from "@/lib/foundation/http/api-error";
import { newId } from "@/lib/foundation/ids";
import { storage } from "@/lib/domain/storage";
import { formatBytes } from "@/lib/domain/net/errors";
import { FetchFailedError, toApiError, UrlNotAllowedError } from "@/lib/domain/net";
import { checkSourceUrl, fetchSource } from "@/lib/domain/sources/fetch-source";
import type { PreflightFileType } from "./analyze-file";
import { resolveCheckTargets, targetsToParams } from "./check-targets";
import { preflightConfig } from "./preflight-config";
import { releaseCheck, reserveCheck } from "./quota";
import { toPublicReport } from "./public-report";
import { AnalysisError, runAnalysis } from "./run-analysis";
import type { CreateCheckBody } from "./schemas";

const TYPES: Record<string, { fileType: PreflightFileType; ext: string; kind: "image" | "pdf" }> = {
  "image/jpeg": { fileType: "jpeg", ext: "jpg", kind: "image" },
  "image/png": { fileType: "png", ext: "png", kind: "image" },
  "image/tiff": { fileType: "tiff", ext: "tif", kind: "image" },
  "application/pdf": { fileType: "pdf", ext: "pdf", kind: "pdf" },
};

/**
 * A full preflight check: validate, count it against the month's quota, fetch
 * the file, keep a copy (for the viewer and for fix jobs), analyse it off the
 * event loop, store the report. Anything that stops it before a report exists
 * gives the quota back and removes the copy. No tokens are charged.
 */
export async function createCheck(db: Db, account: AccountRow, body: CreateCheckBody, requestId?: string) {
  await checkSourceUrl(body.fileUrl, "fileUrl");
  const targets = resolveCheckTargets(body);
  const reservation = await reserveCheck(db, account.id, account.plan);
  const storedKeys: string[] = [];
  try {
    const { bytes, mime } = await fetchFile(body.fileUrl);
    const type = mime ? TYPES[mime] : undefined;
    if (!type) {
      const what = mime ? `its content is ${mime}` : "its content is not a recognised file type";
      throw new ApiError(415, "UNSUPPORTED_FILE_TYPE", `Preflight checks JPEG, PNG, TIFF and PDF files; ${what}.`, { field: "fileUrl", detected: mime ?? null });
    }
    const max = type.kind === "pdf" ? config().MAX_PDF_BYTES : config().MAX_IMAGE_BYTES;
    if (bytes.byteLength > max) {
      throw new ApiError(400, "FILE_TOO_LARGE", `The ${type.kind === "pdf" ? "PDF" : "image"} is larger than the ${formatBytes(max)} limit.`, { field: "fileUrl", max_bytes: max });
    }

    const id = newId("rpt");
    const storedKey = `preflight/${account.id}/${id}.${type.ext}`;
    await storage().put(storedKey, bytes, mime!);
    storedKeys.push(storedKey);
    const size = bytes.byteLength;
    const c = preflightConfig();
    const started = performance.now();
    const result = await runAnalysis(bytes, type.fileType, targets, { maxPixels: c.PREFLIGHT_MAX_PIXELS, maxPdfPages: c.PREFLIGHT_MAX_PDF_PAGES }, {
      timeoutMs: c.PREFLIGHT_TIMEOUT_MS,
      memoryMb: c.PREFLIGHT_WORKER_MEMORY_MB,
      concurrency: c.PREFLIGHT_WORKERS,
    }).catch((err: unknown) => {
      throw analysisApiError(err, requestId);
    });
    const facts = { ...result.facts };
    if (result.preview) {
      facts.previewKey = `preflight/${account.id}/${id}.preview.${result.preview.contentType === "image/png" ? "png" : "jpg"}`;
      await storage().put(facts.previewKey, Buffer.from(result.preview.bytes), result.preview.contentType);
      storedKeys.push(facts.previewKey);
    }
    const [row] = await db
      .insert(preflightReports)
      .values({
        id,
        accountId: account.id,
        designId: body.designId,
        status: result.status,
        fileType: type.fileType,
        fileMime: mime!,
        fileSize: size,
        fileStorageKey: storedKey,
        params: targetsToParams(targets),
        facts,
        issues: result.issues,
        analysisMs: Math.round(performance.now() - started),
      })
      .returning();
    return toPublicReport(row!, { withIssues: true });
  } catch (err) {
    await releaseCheck(db, reservation).catch(() => {});
    for (const key of storedKeys) await storage().delete(key).catch(() => {});
    throw err;
  }
}

/** Fetches with the larger of the two caps; the per-type cap is applied once the type is known. */
async function fetchFile(url: string) {
  try {
    const maxBytes = Math.max(config().MAX_IMAGE_BYTES, config().MAX_PDF_BYTES);
    return await fetchSource(url, { maxBytes });
  } catch (err) {
    if (err instanceof UrlNotAllowedError || err instanceof FetchFailedError) throw toApiError(err, "fileUrl");
    throw err;
  }
}

function analysisApiError(err: unknown, requestId?: string): unknown {
  if (!(err instanceof AnalysisError)) return err;
  if (err.internal) console.error(`[preflight] analysis ${err.kind}${requestId ? ` (request ${requestId})` : ""}: ${err.internal}`);
  switch (err.kind) {
    case "timeout":
      return new ApiError(422, "PREFLIGHT_TIMEOUT", err.message, { limit_ms: preflightConfig().PREFLIGHT_TIMEOUT_MS });
    case "out_of_memory":
      return new ApiError(422, "PREFLIGHT_TOO_COMPLEX", err.message, { limit_mb: preflightConfig().PREFLIGHT_WORKER_MEMORY_MB });
    case "busy":
      return new ApiError(503, "PREFLIGHT_BUSY", err.message, undefined, undefined, { "Retry-After": "30" });
    default:
      return new ApiError(422, "PREFLIGHT_FAILED", "The file could not be analysed; it may be damaged in a way the checker does not recognise. Export it again, or quote the request id.");
  }
}
