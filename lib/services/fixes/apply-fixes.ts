import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { preflightReports, type FixStepRecord } from "@/lib/foundation/db/schema";
import { storage } from "@/lib/domain/storage";
import { applyRasterFixes, type RasterFixType } from "@/lib/engines/imaging/fixes/raster-fixes";
import { addPdfBleed } from "@/lib/engines/pdf/fixes/add-pdf-bleed";
import { FLATTEN_PPI, runPdfPrepress, PrepressError } from "@/lib/engines/pdf/fixes/pdf-prepress";
import { prepressFacts, type PrepressFacts } from "@/lib/engines/pdf/fixes/prepress-facts";
import { preflightConfig } from "@/lib/services/preflight/preflight-config";
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
      const facts = await prepressFacts(bytes, { imagePpi: PREPRESS_IMAGE_PPI, maxPages: preflightConfig().PREFLIGHT_MAX_PDF_PAGES });
      const out = await runPdfPrepress(bytes, { flattenPages: pages, signal });
      bytes = out.bytes;
      flattenedPages = out.flattenedPages;
      engine = out.engine;
      const note = prepressNote(facts, out.flattenedPages);
      applied.push({
        fixType: fixTypes.includes("convert_color_mode") ? "convert_color_mode" : "prepress",
        prepressSteps: note.steps,
        params: { engine: out.engine, colorConversion: "DeviceCMYK", imageResolution: PREPRESS_IMAGE_PPI, flattenResolution: FLATTEN_PPI, flattenedPages: out.flattenedPages, fontsEmbedded: facts.fontsToEmbed, imagesDownsampled: facts.imagesAbove },
        description: note.description,
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
      applied.push({
        fixType: "add_bleed",
        params: { bleedMm: p.bleedMm, method: "edge_stretch", pages: out.pages },
        description: `Extended every page by ${p.bleedMm} mm of bleed by stretching the colours at the page's edges outwards; text and artwork that stop short of the edge are not copied into the bleed. The page itself is unchanged (nothing moved or scaled); TrimBox kept, BleedBox set.`,
      });
    } catch (err) {
      console.error(`[ai-fix] PDF bleed failed on job ${job.id}:`, err);
      throw new FixInputError("The PDF's pages could not be extended with bleed: the file may be damaged. Export it again and check it once more.");
    }
  }
  const outputKey = key("pdf");
  await storage().put(outputKey, Buffer.from(bytes), "application/pdf");
  return { ...base, outputKey, outputMime: "application/pdf", applied, flattenedPages, engine };
}

/** pdfwrite brings colour and grey images above this down to it (PREPRESS_FLAGS). */
const PREPRESS_IMAGE_PPI = 300;

/**
 * What the prepress pass did, in words and steps: only what was true of this
 * file (issue 33: "fonts embedded" was said of files whose fonts were embedded
 * already). A flattened page is named and what it costs is said.
 */
export function prepressNote(facts: PrepressFacts, flattenedPages: number[]): { steps: string[]; description: string } {
  const steps: string[] = [];
  const parts: string[] = [];
  if (facts.fontsToEmbed.length > 0) {
    steps.push("embed_fonts");
    parts.push(`embedded the ${facts.fontsToEmbed.length === 1 ? "font" : "fonts"} ${facts.fontsToEmbed.map((f) => `"${f}"`).join(", ")} (a font the file did not include is replaced by a close substitute)`);
  }
  if (facts.nonCmykColour) {
    steps.push("rgb_to_cmyk");
    parts.push("converted RGB and spot colours to CMYK");
  }
  if (flattenedPages.length > 0) {
    steps.push("flatten_transparency");
    const pl = flattenedPages.length === 1 ? `page ${flattenedPages[0]}` : `pages ${flattenedPages.join(", ")}`;
    parts.push(`flattened the transparency of ${pl} by turning ${flattenedPages.length === 1 ? "that page" : "each of those pages"} into one ${FLATTEN_PPI} ppi image, so its text is no longer text (it prints, but cannot be edited or searched) and its photos keep only the detail they had`);
  }
  if (facts.imagesAbove > 0) {
    steps.push("downsample_images");
    parts.push(`brought ${facts.imagesAbove === 1 ? "one image" : `${facts.imagesAbove} images`} above ${PREPRESS_IMAGE_PPI} ppi down to ${PREPRESS_IMAGE_PPI} ppi`);
  }
  const did = parts.length > 0 ? `${parts.join("; ")}.` : "nothing needed changing.";
  return { steps, description: `Ghostscript pdfwrite: ${did} Images below ${PREPRESS_IMAGE_PPI} ppi are never enlarged here: their resolution stays what it was.` };
}

/** Pages whose transparency the report found (flattening turns a page into one image: only these). */
function transparencyPages(issues: { code: string; page?: number }[]): number[] {
  return [...new Set(issues.filter((i) => i.code === "transparency" && i.page !== undefined).map((i) => i.page!))].sort((a, b) => a - b);
}
