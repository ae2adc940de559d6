import { z } from "zod";
import { COLOR_MODES, FILE_TYPES } from "./schemas";

// The report as GET/POST /v1/services/preflight/checks answer it (public-report.ts),
// described for the OpenAPI document: the studio's types are derived from it, and every
// API test's response is checked against it (test/support/openapi-check.ts).

const box = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number(), unit: z.enum(["pt", "px"]) });

export const preflightIssueResponse = z.object({
  code: z.string(),
  severity: z.enum(["error", "warning", "info"]),
  message: z.string(),
  page: z.number().int().optional(),
  /** PDF points (origin bottom-left) or raster pixels (origin top-left). */
  box: box.optional(),
  details: z.record(z.string(), z.unknown()),
  /** The AI fix types that can repair it (possibly none). */
  fixTypes: z.array(z.string()),
});

export const reportSummaryResponse = z.object({
  reportId: z.string(),
  designId: z.string(),
  status: z.enum(["pass", "warning", "fail"]),
  fileType: z.enum(FILE_TYPES),
  fileSize: z.number().int(),
  summary: z.object({ errors: z.number().int(), warnings: z.number().int(), infos: z.number().int() }),
  createdAt: z.string(),
});

export const reportResponse = reportSummaryResponse.extend({
  fileUrl: z.string(),
  previewUrl: z.string().nullable(),
  file: z.object({
    widthPx: z.number().int().optional(),
    heightPx: z.number().int().optional(),
    pageCount: z.number().int().optional(),
    pages: z.array(z.object({ page: z.number().int(), mediaBox: z.array(z.number()), trimBox: z.array(z.number()), bleedBox: z.array(z.number()) })).optional(),
  }),
  checkedAgainst: z.object({
    declaredFileType: z.string().optional(),
    productType: z.string().optional(),
    canvasWidthInches: z.number().optional(),
    canvasHeightInches: z.number().optional(),
    requiredDpi: z.number().optional(),
    requiredDpiSource: z.string().optional(),
    requiredColorMode: z.enum(COLOR_MODES).optional(),
    bleedMm: z.number().optional(),
  }),
  analysisMs: z.number().int(),
  issues: z.array(preflightIssueResponse),
});

export const reportEnvelope = z.object({ data: reportResponse });
