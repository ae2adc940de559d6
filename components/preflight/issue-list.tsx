"use client";

import { SEVERITY_STYLE } from "./status-badge";
import type { Issue, Severity } from "./types";

const ORDER: Severity[] = ["error", "warning", "info"];

/** The report's issues grouped by severity; choosing one shows it on the page. */
export function IssueList({ issues, selected, onSelect }: { issues: Issue[]; selected: number | null; onSelect: (index: number) => void }) {
  if (issues.length === 0) {
    return <p className="rounded-md border border-emerald-200 bg-emerald-50 px-4 py-3 text-sm text-emerald-800">No issues: this file is ready to print.</p>;
  }
  return (
    <div className="space-y-5">
      {ORDER.map((severity) => {
        const group = issues.map((issue, index) => ({ issue, index })).filter((x) => x.issue.severity === severity);
        if (group.length === 0) return null;
        const style = SEVERITY_STYLE[severity];
        return (
          <section key={severity} aria-label={style.label}>
            <h3 className={`mb-2 flex items-center gap-2 text-sm font-semibold ${style.text}`}>
              <span className={`inline-block h-2 w-2 rounded-full ${style.dot}`} />
              {style.label} ({group.length})
            </h3>
            <ul className="space-y-2">
              {group.map(({ issue, index }) => (
                <li key={index}>
                  <button
                    type="button"
                    data-testid={`issue-${index}`}
                    aria-pressed={selected === index}
                    onClick={() => onSelect(index)}
                    className={`w-full rounded-md border px-3 py-2 text-left text-sm transition ${selected === index ? "border-brand-500 bg-brand-50" : "border-slate-200 bg-white hover:bg-slate-50"}`}
                  >
                    <span className="block text-slate-800">{issue.message}</span>
                    <span className="mt-1 flex flex-wrap items-center gap-1.5 text-xs text-slate-500">
                      <code className="rounded bg-slate-100 px-1 py-0.5">{issue.code}</code>
                      {issue.page ? <span>page {issue.page}</span> : null}
                      {issue.fixTypes.map((f) => (
                        <span key={f} className="rounded bg-brand-50 px-1 py-0.5 text-brand-700">
                          fix: {f}
                        </span>
                      ))}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </div>
  );
}
