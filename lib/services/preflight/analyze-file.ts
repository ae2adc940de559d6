import { analyzeRaster } from "@/lib/engines/imaging/analyze-raster";
import type { RasterPreview } from "@/lib/engines/imaging/render-preview";
import { analyzePdf } from "@/lib/engines/pdf/analyze-pdf";
import type { PreflightFileFacts } from "@/lib/foundation/db/schema/preflight";
import { capIssues, fileTypeMismatch, resolveStatus, type CheckTargets, type PreflightIssue } from "./issue";
import { pdfIssues } from "./pdf-issues";
import { rasterIssues } from "./raster-issues";

export type PreflightFileType = "jpeg" | "png" | "tiff" | "pdf";
export type AnalysisLimits = { maxPixels: number; maxPdfPages: number };
export type AnalysisResult = {
  status: "pass" | "warning" | "fail";
  issues: PreflightIssue[];
  facts: PreflightFileFacts;
  /** Rasters only: a small sRGB picture for the viewer (PDFs are rendered in the browser). */
  preview?: RasterPreview;
};

/**
 * The whole check of one file: engine facts, then the rules, then the cap on
 * repeated issues and the resolved status. Pure and synchronous in effect, so
 * it runs the same in the worker thread and in a unit test.
 */
export async function analyzeFile(bytes: Uint8Array, fileType: PreflightFileType, targets: CheckTargets, limits: AnalysisLimits): Promise<AnalysisResult> {
  const found: PreflightIssue[] = [];
  if (targets.declaredFileType && targets.declaredFileType !== fileType) found.push(fileTypeMismatch(targets.declaredFileType, fileType));
  if (fileType === "pdf") {
    const { issues, facts } = pdfIssues(await analyzePdf(bytes, { maxPages: limits.maxPdfPages }), targets);
    const capped = capIssues([...found, ...issues]);
    return { status: resolveStatus(capped), issues: capped, facts };
  }
  const analysis = await analyzeRaster(bytes, { maxPixels: limits.maxPixels, preview: true });
  const { issues, facts } = rasterIssues(analysis, fileType, targets);
  const capped = capIssues([...found, ...issues]);
  return { status: resolveStatus(capped), issues: capped, facts, preview: analysis.kind === "ok" ? analysis.preview : undefined };
}
