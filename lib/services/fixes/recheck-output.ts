import { and, eq, like } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { preflightReports, type FixRecheckRecord, type PreflightCheckParams } from "@/lib/foundation/db/schema";
import { newId } from "@/lib/foundation/ids";
import { storage } from "@/lib/domain/storage";
import { resolveStatus, type CheckTargets, type PreflightIssue } from "@/lib/services/preflight/issue";
import type { PreflightFileType } from "@/lib/services/preflight/analyze-file";
import { preflightConfig } from "@/lib/services/preflight/preflight-config";
import { runAnalysis } from "@/lib/services/preflight/run-analysis";
import { FixEngineError } from "./job-errors";

const TYPE_OF: Record<string, { fileType: PreflightFileType; ext: string }> = {
  "image/jpeg": { fileType: "jpeg", ext: "jpg" },
  "image/png": { fileType: "png", ext: "png" },
  "image/tiff": { fileType: "tiff", ext: "tif" },
  "application/pdf": { fileType: "pdf", ext: "pdf" },
};

/** The targets a report was checked against, from what it stored (the declared file type is left out: a fix may change the format). */
export function paramsToTargets(p: PreflightCheckParams): CheckTargets {
  const t: CheckTargets = { requiredDpi: p.requiredDpi ?? 300, requiredDpiSource: (p.requiredDpiSource as CheckTargets["requiredDpiSource"]) ?? "default" };
  if (p.requiredColorMode) t.requiredColorMode = p.requiredColorMode as CheckTargets["requiredColorMode"];
  if (p.bleedMm !== undefined) t.bleedMm = p.bleedMm;
  if (p.canvasWidthInches !== undefined && p.canvasHeightInches !== undefined) t.canvas = { widthIn: p.canvasWidthInches, heightIn: p.canvasHeightInches };
  if (p.productType) t.productType = p.productType;
  return t;
}

const RECHECK_SUFFIX = / \(re-check (\d+)\)$/;

/**
 * The name a re-check report gets: the original's name with "(re-check N)", N one
 * more than the account's re-checks of that name so far, so the recent list tells
 * a re-check from the file it checked (issue 22). A re-check of a re-check counts
 * on from the same base name.
 */
export async function recheckName(db: Db, accountId: string, designId: string): Promise<string> {
  const base = designId.replace(RECHECK_SUFFIX, "");
  const pattern = `${base.replace(/[\\%_]/g, (c) => `\\${c}`)} (re-check %)`;
  const rows = await db
    .select({ designId: preflightReports.designId })
    .from(preflightReports)
    .where(and(eq(preflightReports.accountId, accountId), like(preflightReports.designId, pattern)));
  const last = Math.max(0, ...rows.map((r) => Number(RECHECK_SUFFIX.exec(r.designId)?.[1] ?? 0)));
  return `${base} (re-check ${last + 1})`;
}

/** Issue codes an AI fix never repairs: they are neither "resolved" by nor expected of a job. */
const INFORMATIONAL = new Set(["print_size_unknown", "icc_profile_missing", "more_issues_omitted", "file_type_mismatch"]);

/**
 * Problems only the designer can solve, and why: an AI fix never moves text,
 * never invents detail a photo does not have, and never turns a page into
 * pixels to make these findings go away (issue 33).
 */
const WHY_NOT_FIXABLE: Record<string, string> = {
  content_in_safe_margin: "moving text or artwork is a design decision: move it at least the safe margin inside the trim and export again",
  content_outside_trim: "moving text or artwork is a design decision: move it inside the trim and export again",
  low_resolution: "a PDF's photo cannot be given detail it does not have: place a larger original (or upscale the photo itself with an AI fix for images) and export again",
  page_size_mismatch: "resizing pages would move or distort the layout: export at the product's size",
  mixed_page_sizes: "resizing pages would move or distort the layout: export every page at one size",
  file_corrupt: "export the file again",
};

/**
 * Findings a page turned into one image can no longer show (its text, its
 * photos' own pixels): on a flattened page they are carried over from the
 * checked file, not read from the pixels, which would say they are gone.
 */
const HIDDEN_BY_FLATTENING = new Set(["low_resolution", "content_in_safe_margin", "content_outside_trim"]);

export type NotFixable = { code: string; page?: number; message: string };

/**
 * Checks the corrected file with the same preflight and the same targets and
 * stores that as a report of its own (with its own copy of the file, so
 * deleting either report leaves the other whole). The answer compares issue
 * codes: gone, still there, and (a defect of the fix) the ones the job meant to repair.
 */
export async function recheckOutput(
  db: Db,
  original: { id: string; accountId: string; designId: string; params: PreflightCheckParams; issues: { code: string; fixTypes: string[]; details: Record<string, unknown> }[] },
  output: { key: string; mime: string },
  meantToFix: (issue: { code: string; fixTypes: string[]; details: Record<string, unknown> }) => boolean,
  opts: { flattenedPages?: number[] | null } = {},
): Promise<FixRecheckRecord> {
  const object = await storage().get(output.key);
  const type = TYPE_OF[output.mime];
  if (!object || !type) throw new FixEngineError("The corrected file could not be read back for its re-check.");
  const c = preflightConfig();
  const targets = paramsToTargets(original.params);
  const started = performance.now();
  const result = await runAnalysis(new Uint8Array(object.body), type.fileType, targets, { maxPixels: c.PREFLIGHT_MAX_PIXELS, maxPdfPages: c.PREFLIGHT_MAX_PDF_PAGES }, {
    timeoutMs: c.PREFLIGHT_TIMEOUT_MS,
    memoryMb: c.PREFLIGHT_WORKER_MEMORY_MB,
    concurrency: c.PREFLIGHT_WORKERS,
  });
  const flattened = new Set(opts.flattenedPages ?? []);
  const carried = (original.issues as PreflightIssue[])
    .filter((i) => i.page !== undefined && flattened.has(i.page) && HIDDEN_BY_FLATTENING.has(i.code))
    .map((i) => ({ ...i, message: `${i.message} (Carried over from the checked file: page ${i.page} was flattened into one image, where this cannot be measured again.)`, details: { ...i.details, carriedOver: true } }));
  const issues = [...result.issues, ...carried];
  const status = resolveStatus(issues);
  const id = newId("rpt");
  const fileKey = `preflight/${original.accountId}/${id}.${type.ext}`;
  await storage().put(fileKey, object.body, output.mime);
  const facts = { ...result.facts };
  if (result.preview) {
    facts.previewKey = `preflight/${original.accountId}/${id}.preview.${result.preview.contentType === "image/png" ? "png" : "jpg"}`;
    await storage().put(facts.previewKey, Buffer.from(result.preview.bytes), result.preview.contentType);
  }
  await db.insert(preflightReports).values({
    id,
    accountId: original.accountId,
    designId: await recheckName(db, original.accountId, original.designId),
    status,
    fileType: type.fileType,
    fileMime: output.mime,
    fileSize: object.body.byteLength,
    fileStorageKey: fileKey,
    params: original.params,
    facts,
    issues,
    analysisMs: Math.round(performance.now() - started),
  });
  const before = new Set(original.issues.map((i) => i.code).filter((c) => !INFORMATIONAL.has(c)));
  const after = new Set(issues.map((i) => i.code).filter((c) => !INFORMATIONAL.has(c)));
  const targeted = new Set(original.issues.filter(meantToFix).map((i) => i.code));
  const stillThere = new Set(issues.map((i) => `${i.code}@${i.page ?? ""}`));
  const notFixable: NotFixable[] = (original.issues as PreflightIssue[])
    // Only issues that name no fix at all: a raster's low resolution has one (an upscale), merely not chosen.
    .filter((i) => WHY_NOT_FIXABLE[i.code] && i.fixTypes.length === 0 && !i.details.prepressFix && !meantToFix(i) && stillThere.has(`${i.code}@${i.page ?? ""}`))
    .filter((i, n, all) => all.findIndex((j) => j.code === i.code && j.page === i.page) === n)
    .map((i) => ({ code: i.code, ...(i.page !== undefined ? { page: i.page } : {}), message: `Not fixed${i.page !== undefined ? ` on page ${i.page}` : ""}: ${WHY_NOT_FIXABLE[i.code]}.` }));
  return {
    reportId: id,
    status,
    resolved: [...before].filter((c) => !after.has(c)),
    remaining: [...after],
    unfixed: [...targeted].filter((c) => after.has(c)),
    notFixable,
  };
}
