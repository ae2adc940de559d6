"use client";

import { SEVERITY_STYLE } from "./status-badge";
import { FIX_TITLES, ISSUE_TITLES, technicalDetails, type Issue, type Severity } from "./types";

const ORDER: Severity[] = ["error", "warning", "info"];

/**
 * The report's issues grouped by severity, in plain words; choosing one shows
 * it on the page. The technical detail (issue code, colour spaces, object
 * names, measurements) is one click away under each. An issue an AI fix can
 * repair offers that fix (`onFix`); without one, the fix is named as text.
 */
export function IssueList({ issues, selected, onSelect, onFix }: { issues: Issue[]; selected: number | null; onSelect: (index: number) => void; onFix?: (fixType: string) => void }) {
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
                <li key={index} className={`rounded-md border text-sm transition ${selected === index ? "border-brand-500 bg-brand-50" : "border-slate-200 bg-white"}`}>
                  <button type="button" data-testid={`issue-${index}`} aria-pressed={selected === index} onClick={() => onSelect(index)} className="w-full rounded-md px-3 pt-2 text-left hover:bg-slate-50">
                    <span className="block text-xs font-semibold uppercase tracking-wide text-slate-500">
                      {ISSUE_TITLES[issue.code] ?? "Issue"}
                      {issue.page ? ` · page ${issue.page}` : ""}
                    </span>
                    <span className="block text-slate-800">{issue.message}</span>
                  </button>
                  <div className="flex flex-wrap items-center gap-2 px-3 pb-2 pt-1 text-xs">
                    {issue.fixTypes.map((f) =>
                      onFix ? (
                        <button key={f} type="button" data-testid={`issue-fix-${index}-${f}`} onClick={() => onFix(f)} className="rounded border border-brand-200 bg-brand-50 px-1.5 py-0.5 font-medium text-brand-700 hover:bg-brand-100">
                          Fix with AI: {FIX_TITLES[f] ?? f.replace(/_/g, " ")} →
                        </button>
                      ) : (
                        <span key={f} className="text-slate-500">
                          An AI fix can {(FIX_TITLES[f] ?? f.replace(/_/g, " ")).toLowerCase()}.
                        </span>
                      ),
                    )}
                    <details data-testid={`issue-details-${index}`} className="w-full text-slate-500">
                      <summary className="cursor-pointer select-none">Technical details</summary>
                      <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 break-all">
                        {technicalDetails(issue).map((d) => (
                          <div key={d.label} className="contents">
                            <dt className="font-medium text-slate-600">{d.label}</dt>
                            <dd className="font-mono text-slate-700">{d.value}</dd>
                          </div>
                        ))}
                      </dl>
                    </details>
                  </div>
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </div>
  );
}
