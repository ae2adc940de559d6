// Shapes of the preflight API as the studio reads them (camelCase, see docs/api.md).
import { countNoun } from "@/lib/count-noun";
export type Severity = "error" | "warning" | "info";
export type IssueBox = { x: number; y: number; width: number; height: number; unit: "pt" | "px" };

export type Issue = {
  code: string;
  severity: Severity;
  message: string;
  page?: number;
  box?: IssueBox;
  details: Record<string, unknown>;
  fixTypes: string[];
};

export type PreflightSummary = { errors: number; warnings: number; infos: number };

export type ReportSummary = {
  reportId: string;
  designId: string;
  status: "pass" | "warning" | "fail";
  fileType: "jpeg" | "png" | "tiff" | "pdf";
  fileSize: number;
  summary: PreflightSummary;
  createdAt: string;
};

export type Report = ReportSummary & {
  fileUrl: string;
  previewUrl: string | null;
  file: {
    widthPx?: number;
    heightPx?: number;
    pageCount?: number;
    pages?: { page: number; mediaBox: number[]; trimBox: number[]; bleedBox: number[] }[];
  };
  checkedAgainst: {
    requiredDpi?: number;
    requiredColorMode?: string;
    bleedMm?: number;
    canvasWidthInches?: number;
    canvasHeightInches?: number;
    productType?: string;
  };
  issues: Issue[];
};

export const PRODUCT_TYPES = ["photo_on_canvas", "poster", "wallpaper", "framed_print", "wrapping_paper", "stock_canvas"] as const;

/** Issues get a stable key from their position in the report. */
export const issueKey = (i: number) => `issue-${i}`;

/** "1 error, 2 warnings" (and notes when asked), for report summaries. */
export function summaryText(s: PreflightSummary, withNotes = false): string {
  const parts = [countNoun(s.errors, "errors"), countNoun(s.warnings, "warnings")];
  if (withNotes) parts.push(countNoun(s.infos, "notes"));
  return parts.join(", ");
}
