import type { preflightReports } from "@/lib/foundation/db/schema";
import { ApiError, badRequest } from "@/lib/foundation/http/api-error";
import { deriveFixes, type FixType, type PdfPrepressStep } from "@/lib/services/preflight/fix-types";
import { preflightConfig } from "@/lib/services/preflight/preflight-config";
import { FIX_PRICES, type FixTier } from "./pricing";
import type { CreateFixJobBody } from "./schemas";

type ReportRow = typeof preflightReports.$inferSelect;

export type FixPlan = {
  fileKind: "raster" | "pdf";
  tier: FixTier;
  price: number;
  fixTypes: FixType[];
  prepressSteps: PdfPrepressStep[];
  targetDpi: number;
};

/** Fix types that only make sense on pixels; a PDF's images are resampled by the prepress tier instead. */
const RASTER_ONLY: FixType[] = ["upscale_resolution_2x", "upscale_resolution_4x", "sharpen_edges", "resize_to_spec"];
/** What a PDF fix type asks of the prepress engine. */
const PDF_STEP_OF: Partial<Record<FixType, PdfPrepressStep>> = { convert_color_mode: "rgb_to_cmyk", remove_transparency: "flatten_transparency" };
/** Issues that mean the file itself cannot be worked on. */
const UNFIXABLE = ["pdf_encrypted", "too_many_pages", "content_too_complex", "image_too_large"];

/**
 * Decides what a job would do and what it costs, from the report and the
 * caller's options, before anything is charged: every refusal here is a 400.
 */
export function planFixJob(report: ReportRow, options: CreateFixJobBody["options"] = {}): FixPlan {
  const fileKind = report.fileType === "pdf" ? "pdf" : "raster";
  const blocker = report.issues.find((i) => UNFIXABLE.includes(i.code) || (i.code === "file_corrupt" && i.page === undefined));
  if (blocker) {
    throw new ApiError(400, "FILE_NOT_FIXABLE", `This file cannot be fixed: ${blocker.message}`, { field: "preflightReportId", issue: blocker.code });
  }
  const derived = deriveFixes(report.issues);
  const requested = options.fixTypes ? [...new Set(options.fixTypes)] : null;
  const targetDpi = options.targetDpi ?? Math.round(report.params.requiredDpi ?? 300);
  const bleedMm = report.params.bleedMm;
  const hasCanvas = report.params.canvasWidthInches !== undefined && report.params.canvasHeightInches !== undefined;

  if (fileKind === "pdf") {
    const fixTypes = requested ?? derived.fixTypes;
    const wrong = fixTypes.find((f) => RASTER_ONLY.includes(f));
    if (wrong) throw notApplicable(wrong, `${wrong} applies to raster images only; a PDF's images are brought to 300 ppi by the prepress fixes (convert_color_mode, remove_transparency).`);
    if (fixTypes.includes("add_bleed") && !bleedMm) throw notApplicable("add_bleed", "add_bleed needs the bleed size: check the file again with productProfile.bleedMm.");
    const steps = new Set<PdfPrepressStep>(requested ? [] : derived.prepressSteps);
    for (const f of fixTypes) if (PDF_STEP_OF[f]) steps.add(PDF_STEP_OF[f]);
    // Only the steps this file needs (issue 33: "embed_fonts" was listed for files whose fonts were
    // embedded). The pass itself may do more; the applied fix says what it really changed.
    const prepressSteps = (["embed_fonts", "rgb_to_cmyk", "flatten_transparency", "downsample_images"] as const).filter((s) => steps.has(s));
    if (fixTypes.length === 0 && prepressSteps.length === 0) throw nothingToFix();
    const tier: FixTier = prepressSteps.length > 0 ? "pdf_prepress" : "pdf_bleed";
    return { fileKind, tier, price: FIX_PRICES[tier], fixTypes, prepressSteps, targetDpi };
  }

  const fixTypes = requested ?? derived.fixTypes;
  if (fixTypes.length === 0) throw nothingToFix();
  if (fixTypes.includes("add_bleed") && (!hasCanvas || !bleedMm)) {
    throw notApplicable("add_bleed", "add_bleed needs the canvas size and the bleed: check the file again with canvasWidthInches, canvasHeightInches and productProfile.bleedMm.");
  }
  const { widthPx = 0, heightPx = 0 } = report.facts;
  if (!widthPx || !heightPx) throw new ApiError(400, "FILE_NOT_FIXABLE", "This image could not be read when it was checked, so it cannot be fixed; export it again.", { field: "preflightReportId" });
  const pixels = outputPixels(widthPx, heightPx, fixTypes, targetDpi, hasCanvas ? { w: report.params.canvasWidthInches!, h: report.params.canvasHeightInches! } : null, bleedMm ?? 0);
  const max = preflightConfig().PREFLIGHT_MAX_PIXELS;
  if (pixels > max) {
    throw new ApiError(400, "OUTPUT_TOO_LARGE", `The fixed image would have ${(pixels / 1e6).toFixed(0)} megapixels; at most ${(max / 1e6).toFixed(0)} are accepted. Ask for a smaller upscale or a lower targetDpi.`, {
      field: "options",
      outputPixels: pixels,
      maxPixels: max,
    });
  }
  return { fileKind, tier: "raster", price: FIX_PRICES.raster, fixTypes, prepressSteps: [], targetDpi };
}

function outputPixels(w: number, h: number, fixTypes: FixType[], dpi: number, canvas: { w: number; h: number } | null, bleedMm: number): number {
  if (fixTypes.includes("resize_to_spec") && canvas) {
    const b = (2 * bleedMm) / 25.4;
    return Math.round((canvas.w + b) * dpi) * Math.round((canvas.h + b) * dpi);
  }
  let f = 1;
  if (fixTypes.includes("upscale_resolution_2x")) f *= 2;
  if (fixTypes.includes("upscale_resolution_4x")) f *= 4;
  return w * f * h * f;
}

function notApplicable(fixType: FixType, message: string) {
  return new ApiError(400, "FIX_NOT_APPLICABLE", message, { field: "options.fixTypes", fixType });
}

function nothingToFix() {
  return badRequest("NOTHING_TO_FIX", "The report lists no issue an AI fix can repair; there is nothing to fix.", { field: "preflightReportId" });
}
