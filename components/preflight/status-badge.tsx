import type { ReportSummary, Severity } from "./types";

const STATUS = {
  pass: { label: "Pass", className: "bg-emerald-100 text-emerald-800" },
  warning: { label: "Warning", className: "bg-amber-100 text-amber-800" },
  fail: { label: "Fail", className: "bg-red-100 text-red-800" },
} as const;

export function StatusBadge({ status }: { status: ReportSummary["status"] }) {
  const s = STATUS[status];
  return <span className={`inline-flex rounded px-2 py-0.5 text-xs font-semibold uppercase tracking-wide ${s.className}`}>{s.label}</span>;
}

export const SEVERITY_STYLE: Record<Severity, { label: string; dot: string; stroke: string; text: string }> = {
  error: { label: "Errors", dot: "bg-red-500", stroke: "#dc2626", text: "text-red-700" },
  warning: { label: "Warnings", dot: "bg-amber-500", stroke: "#d97706", text: "text-amber-700" },
  info: { label: "Notes", dot: "bg-sky-500", stroke: "#0284c7", text: "text-sky-700" },
};
