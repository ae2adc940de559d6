import type { PreflightIssueRecord } from "@/lib/foundation/db/schema/preflight";
import type { FixType } from "./fix-types";

export type PreflightIssue = PreflightIssueRecord;
export type Severity = PreflightIssue["severity"];

/** What a check was asked to verify, after defaults are applied (see resolveCheckParams). */
export type CheckTargets = {
  requiredDpi: number;
  /** Where requiredDpi came from, for messages and the report. */
  requiredDpiSource: "productProfile" | "productType" | "default";
  requiredColorMode?: "cmyk" | "rgb" | "grayscale";
  bleedMm?: number;
  canvas?: { widthIn: number; heightIn: number };
  declaredFileType?: "jpeg" | "png" | "tiff" | "pdf";
  productType?: string;
};

export function makeIssue(
  code: string,
  severity: Severity,
  message: string,
  opts: { page?: number; box?: PreflightIssue["box"]; details?: Record<string, unknown>; fixTypes?: FixType[] } = {},
): PreflightIssue {
  const issue: PreflightIssue = { code, severity, message, details: opts.details ?? {}, fixTypes: opts.fixTypes ?? [] };
  if (opts.page !== undefined) issue.page = opts.page;
  if (opts.box) issue.box = opts.box;
  return issue;
}

/** Below the requirement is a warning down to 75% of it (still printable, visibly softer), an error beneath. */
export function resolutionSeverity(actual: number, required: number): Severity {
  return actual / required < 0.75 ? "error" : "warning";
}

const intFormat = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
/** 12345 -> "12,345". */
export const fmtInt = (n: number) => intFormat.format(n);
/** Inches or millimetres with at most two decimals: 8.5, 10.24, 3. */
export const fmtNum = (n: number) => String(Math.round(n * 100) / 100);
export const fmtPercent = (fraction: number) => `${(Math.round(fraction * 1000) / 10).toFixed(1)}%`;

export const FILE_TYPE_NAMES = { jpeg: "JPEG", png: "PNG", tiff: "TIFF", pdf: "PDF" } as const;

export function fileTypeMismatch(declared: keyof typeof FILE_TYPE_NAMES, detected: keyof typeof FILE_TYPE_NAMES): PreflightIssue {
  return makeIssue(
    "file_type_mismatch",
    "warning",
    `The file was declared as ${FILE_TYPE_NAMES[declared]} but its content is a ${FILE_TYPE_NAMES[detected]}; it was checked as a ${FILE_TYPE_NAMES[detected]}.`,
    { details: { declaredFileType: declared, detectedFileType: detected } },
  );
}

/** At most this many issues of one code are listed; the rest are counted in one `more_issues_omitted`. */
export const MAX_ISSUES_PER_CODE = 100;

export function capIssues(issues: PreflightIssue[]): PreflightIssue[] {
  const counts = new Map<string, number>();
  const out: PreflightIssue[] = [];
  for (const issue of issues) {
    const n = (counts.get(issue.code) ?? 0) + 1;
    counts.set(issue.code, n);
    if (n <= MAX_ISSUES_PER_CODE) out.push(issue);
  }
  for (const [code, n] of counts) {
    if (n > MAX_ISSUES_PER_CODE) {
      const omitted = n - MAX_ISSUES_PER_CODE;
      out.push(makeIssue("more_issues_omitted", "info", `${fmtInt(omitted)} more "${code}" issues are not listed (the first ${MAX_ISSUES_PER_CODE} are).`, { details: { code, omitted, total: n } }));
    }
  }
  return out;
}

/** pass: nothing to fix; warning: printable, but something deserves a look; fail: at least one error. */
export function resolveStatus(issues: PreflightIssue[]): "pass" | "warning" | "fail" {
  if (issues.some((i) => i.severity === "error")) return "fail";
  if (issues.some((i) => i.severity === "warning")) return "warning";
  return "pass";
}
