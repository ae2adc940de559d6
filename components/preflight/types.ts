// Shapes of the preflight API as the studio reads them (camelCase, see docs/api.md),
// from the OpenAPI document (lib/services/preflight/report-response.ts).
import { countNoun } from "@/lib/foundation/count-noun";
import type { ApiResponse } from "@/lib/client/typed-api";
type ReportBody = ApiResponse<"/v1/services/preflight/checks/{reportId}", "get">["data"];

export type Report = ReportBody;
export type ReportSummary = ApiResponse<"/v1/services/preflight/checks", "get">["data"][number];
export type Issue = Report["issues"][number];
export type IssueBox = NonNullable<Issue["box"]>;
export type Severity = Issue["severity"];
export type PreflightSummary = ReportSummary["summary"];

/** Issues get a stable key from their position in the report. */
export const issueKey = (i: number) => `issue-${i}`;

/** "1 error, 2 warnings" (and notes when asked), for report summaries. */
export function summaryText(s: PreflightSummary, withNotes = false): string {
  const parts = [countNoun(s.errors, "errors"), countNoun(s.warnings, "warnings")];
  if (withNotes) parts.push(countNoun(s.infos, "notes"));
  return parts.join(", ");
}

/** A short name for each issue code, in a print customer's words (the code itself is in the technical details). */
export const ISSUE_TITLES: Record<string, string> = {
  file_type_mismatch: "File type differs from what was declared",
  file_corrupt: "Damaged file",
  pdf_encrypted: "Password-protected PDF",
  too_many_pages: "Too many pages",
  content_too_complex: "Page too complex to check",
  image_too_large: "Image too large to check",
  print_size_unknown: "Print size not given",
  low_resolution: "Low resolution",
  aspect_ratio_mismatch: "Different shape from the print",
  missing_bleed: "Missing bleed",
  page_size_mismatch: "Wrong page size",
  content_outside_trim: "Cut off at the edge",
  content_in_safe_margin: "Too close to the edge",
  mixed_page_sizes: "Pages of different sizes",
  font_not_embedded: "Font not included",
  color_mode_mismatch: "Colour mode",
  spot_color: "Spot colour",
  icc_profile_missing: "No colour profile",
  icc_profile_mismatch: "Wrong colour profile",
  transparency: "Transparency",
  exif_orientation: "Turned by a camera tag",
  more_issues_omitted: "More issues not listed",
};

/** What each AI fix does, as a button says it. */
export const FIX_TITLES: Record<string, string> = {
  upscale_resolution_2x: "Upscale 2x",
  upscale_resolution_4x: "Upscale 4x",
  add_bleed: "Add bleed",
  remove_transparency: "Remove transparency",
  sharpen_edges: "Sharpen edges",
  resize_to_spec: "Resize to the print",
  convert_color_mode: "Convert to CMYK",
};

type BoxWithPage = IssueBox & { page?: number };

/**
 * The boxes to draw for an issue on `page`: each object it lists in
 * details.boxes (a font's text runs, each transparent object), else its one box.
 */
export function issueBoxes(issue: Issue, page: number): IssueBox[] {
  const listed = Array.isArray(issue.details.boxes) ? (issue.details.boxes as BoxWithPage[]) : [];
  const onPage = listed.filter((b) => b.page === page && typeof b.x === "number" && typeof b.width === "number");
  if (onPage.length > 0) return onPage.map((b) => ({ x: b.x, y: b.y, width: b.width, height: b.height, unit: "pt" }));
  return issue.page === page && issue.box?.unit === "pt" ? [issue.box] : [];
}

/** The technical facts behind an issue, as label/value lines (the issue code first). */
export function technicalDetails(issue: Issue): { label: string; value: string }[] {
  const lines = [{ label: "Issue code", value: issue.code }];
  if (issue.fixTypes.length) lines.push({ label: "Fix types", value: issue.fixTypes.join(", ") });
  for (const [k, v] of Object.entries(issue.details)) {
    if (k === "boxes") {
      lines.push({ label: "Boxes", value: `${(v as unknown[]).length} listed` });
      continue;
    }
    const text = typeof v === "string" ? v : JSON.stringify(v);
    lines.push({ label: k, value: text.length > 300 ? `${text.slice(0, 300)}…` : text });
  }
  if (issue.box) lines.push({ label: "Box", value: `${issue.box.x}, ${issue.box.y}, ${issue.box.width} x ${issue.box.height} ${issue.box.unit}` });
  return lines;
}

export type CheckPlanInput = {
  canvasWidthInches?: number;
  canvasHeightInches?: number;
  bleedMm?: number;
  requiredDpi?: number;
  requiredDpiSource?: string;
  requiredColorMode?: string;
  productType?: string;
};

export type PlannedCheck = { check: string; checked: boolean; detail: string };

/**
 * What a check verifies and what it skips, and why, in the customer's words:
 * shown under the form before checking and on every report. The resolution
 * falls back to 300 ppi (the API's rule); everything else is checked only when asked.
 */
export function checkPlan(p: CheckPlanInput, fileType?: string): PlannedCheck[] {
  const canvas = p.canvasWidthInches !== undefined && p.canvasHeightInches !== undefined;
  const dpiFrom = p.requiredDpiSource === "productProfile" ? "as asked" : p.requiredDpiSource === "productType" || p.productType ? `the minimum for ${(p.productType ?? "the product").replace(/_/g, " ")}` : "the default for print; choose a product or type a DPI to change it";
  const raster = fileType !== undefined && fileType !== "pdf";
  return [
    canvas
      ? { check: "Page size", checked: true, detail: `${p.canvasWidthInches} x ${p.canvasHeightInches} in` }
      : { check: "Page size", checked: false, detail: "skipped: no canvas size given" },
    p.bleedMm !== undefined && p.bleedMm > 0
      ? { check: "Bleed", checked: true, detail: `${p.bleedMm} mm on every side` }
      : { check: "Bleed", checked: false, detail: p.bleedMm === 0 ? "skipped: no bleed asked for (0 mm)" : "skipped: no bleed given" },
    raster && !canvas
      ? { check: "Resolution", checked: false, detail: "skipped: a picture's resolution depends on its print size (give the canvas size)" }
      : { check: "Resolution", checked: true, detail: `${p.requiredDpi ?? 300} ppi (${dpiFrom})` },
    p.requiredColorMode
      ? { check: "Colour", checked: true, detail: p.requiredColorMode === "cmyk" ? "CMYK required" : p.requiredColorMode === "rgb" ? "RGB required" : "greys only" }
      : { check: "Colour", checked: false, detail: "skipped: any colour mode accepted (spot colours still noted)" },
    ...(raster
      ? []
      : [
          { check: "Edges", checked: true, detail: "text and artwork at least 3 mm inside the trim, nothing cut off" },
          { check: "Fonts", checked: true, detail: "every font included in the file" },
        ]),
    { check: "Transparency", checked: true, detail: "see-through objects noted" },
  ];
}
