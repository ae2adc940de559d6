import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/db/types";
import { preflightReports, type FixStepRecord } from "@/lib/db/schema";
import { storage } from "@/lib/storage";
import { applyRasterFixes, type RasterFixType } from "@/lib/imaging/fixes/raster-fixes";
import { addPdfBleed } from "@/lib/pdf/fixes/add-pdf-bleed";
import { runPdfPrepress, PrepressError } from "@/lib/pdf/fixes/pdf-prepress";
import { FixEngineError, FixInputError } from "./job-errors";

export type FixJobWork = { id: string; accountId: string; reportId: string; fileKind: string; fixTypes: string[]; prepressSteps: string[]; targetDpi: number };

export type AppliedFixes = { outputKey: string; outputMime: string; applied: FixStepRecord[]; flattenedPages: number[] | null; engine: string | null; sourceKey: string; sourceMime: string };

const EXT: Record<string, string> = { "image/jpeg": "jpg", "image/png": "png", "image/tiff": "tif", "application/pdf": "pdf" };

/** The job's report, still in the same account; a deleted report ends the job (refunded). */
export async function loadReport(db: Db, job: { accountId: string; reportId: string }) {
  const [report] = await db
    .select()
    .from(preflightReports)
    .where(and(eq(preflightReports.id, job.reportId), eq(preflightReports.accountId, job.accountId)));
  if (!report) throw new FixInputError("The preflight report was deleted before the fix ran, and its file with it; check the file again and start a new fix.");
  return report;
}

/**
 * Runs the job's fixes on the report's stored file and stores the result at
 * `key(ext)`. `fixTypes` is the job's list or an approved subset of it.
 */
export async function applyFixes(db: Db, job: FixJobWork, approved: string[] | null, key: (ext: string) => string, signal?: AbortSignal): Promise<AppliedFixes> {
  const fixTypes = approved ?? job.fixTypes;
  const report = await loadReport(db, job);
  const source = await storage().get(report.fileStorageKey);
  if (!source) throw new FixInputError("The checked file is no longer stored (it has expired); check the file again and start a new fix.");
  const p = report.params;
  const canvas = p.canvasWidthInches !== undefined && p.canvasHeightInches !== undefined ? { widthIn: p.canvasWidthInches, heightIn: p.canvasHeightInches } : undefined;
  const base = { sourceKey: report.fileStorageKey, sourceMime: report.fileMime };

  if (job.fileKind === "raster") {
    let result;
    try {
      result = await applyRasterFixes(source.body, {
        fixTypes: fixTypes as RasterFixType[],
        targetDpi: job.targetDpi,
        canvas,
        bleedMm: p.bleedMm,
        format: report.fileType as "jpeg" | "png" | "tiff",
      });
    } catch (err) {
      console.error(`[ai-fix] raster fixes failed on job ${job.id}:`, err);
      throw new FixInputError("The image could not be processed: it may be damaged. Export it again and check it once more.");
    }
    const outputKey = key(EXT[result.mime]!);
    await storage().put(outputKey, result.bytes, result.mime);
    return { ...base, outputKey, outputMime: result.mime, applied: result.applied, flattenedPages: null, engine: "sharp" };
  }

  let bytes: Uint8Array = source.body;
  const applied: FixStepRecord[] = [];
  let flattenedPages: number[] | null = null;
  let engine: string | null = null;
  // An approved subset runs the prepress pass only if it kept a prepress fix type.
  const prepress = job.prepressSteps.length > 0 && (!approved || approved.some((f) => f !== "add_bleed"));
  if (prepress) {
    const flatten = job.prepressSteps.includes("flatten_transparency") && (!approved || approved.includes("remove_transparency"));
    const pages = flatten ? transparencyPages(report.issues) : [];
    try {
      const out = await runPdfPrepress(bytes, { flattenPages: pages, signal });
      bytes = out.bytes;
      flattenedPages = out.flattenedPages;
      engine = out.engine;
      applied.push({
        fixType: fixTypes.includes("convert_color_mode") ? "convert_color_mode" : "prepress",
        prepressSteps: job.prepressSteps.filter((s) => s !== "flatten_transparency" || out.flattenedPages.length > 0),
        params: { engine: out.engine, colorConversion: "DeviceCMYK", imageResolution: 300, flattenResolution: 600, flattenedPages: out.flattenedPages },
        description: `Ghostscript pdfwrite: fonts embedded, colours converted to DeviceCMYK, images above 300 ppi brought down to 300 ppi${out.flattenedPages.length ? `; transparency flattened at 600 ppi on page ${out.flattenedPages.join(", ")}` : ""}.`,
      });
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      if (err instanceof PrepressError) throw err.retriable ? new FixEngineError(err.message, { cause: err }) : new FixInputError(err.message);
      throw err;
    }
  }
  if (fixTypes.includes("add_bleed")) {
    try {
      const out = await addPdfBleed(bytes, { bleedMm: p.bleedMm ?? 3 });
      bytes = out.bytes;
      applied.push({ fixType: "add_bleed", params: { bleedMm: p.bleedMm, method: "mirror", pages: out.pages }, description: `Extended every page by ${p.bleedMm} mm of bleed, mirroring the page's own edges (vectors 1:1); TrimBox kept, BleedBox set.` });
    } catch (err) {
      console.error(`[ai-fix] PDF bleed failed on job ${job.id}:`, err);
      throw new FixInputError("The PDF's pages could not be extended with bleed: the file may be damaged. Export it again and check it once more.");
    }
  }
  const outputKey = key("pdf");
  await storage().put(outputKey, Buffer.from(bytes), "application/pdf");
  return { ...base, outputKey, outputMime: "application/pdf", applied, flattenedPages, engine };
}

/** Pages whose transparency the report found (flattening turns a page into one image: only these). */
function transparencyPages(issues: { code: string; page?: number }[]): number[] {
  return [...new Set(issues.filter((i) => i.code === "transparency" && i.page !== undefined).map((i) => i.page!))].sort((a, b) => a - b);
}
