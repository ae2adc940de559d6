"use client";

import type { ReactNode } from "react";

const STYLES: Record<string, string> = {
  queued: "bg-slate-100 text-slate-700",
  pending: "bg-amber-100 text-amber-800",
  processing: "bg-amber-100 text-amber-800",
  running: "bg-amber-100 text-amber-800",
  analyzing: "bg-amber-100 text-amber-800",
  applying: "bg-amber-100 text-amber-800",
  awaiting_approval: "bg-sky-100 text-sky-800",
  completed: "bg-emerald-100 text-emerald-800",
  failed: "bg-red-100 text-red-800",
  rejected: "bg-slate-200 text-slate-700",
};

const LABELS: Record<string, string> = {
  queued: "Queued",
  pending: "Queued",
  processing: "Processing",
  running: "Running",
  analyzing: "Analysing",
  applying: "Applying",
  awaiting_approval: "Waiting for approval",
  completed: "Done",
  failed: "Failed, refunded",
  rejected: "Rejected",
};

export function StatusPill({ status }: { status: string }) {
  return (
    <span className={`whitespace-nowrap rounded-full px-2.5 py-0.5 text-xs font-medium ${STYLES[status] ?? STYLES.processing}`} data-testid="history-status">
      {LABELS[status] ?? status}
    </span>
  );
}

/** The status filter of a history list: "All" and the operation's states. */
export function StatusFilter({ value, options, onChange, label }: { value: string | null; options: readonly string[]; onChange: (v: string | null) => void; label: string }) {
  return (
    <label className="flex items-center gap-2 text-sm text-slate-600">
      <span>{label}</span>
      <select className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm" value={value ?? ""} onChange={(e) => onChange(e.target.value || null)}>
        <option value="">All</option>
        {options.map((s) => (
          <option key={s} value={s}>
            {LABELS[s] ?? s}
          </option>
        ))}
      </select>
    </label>
  );
}

/** "23 Nov 2026, 18:40" in the reader's locale. */
export function When({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} className="text-xs text-slate-500">
      {new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" })}
    </time>
  );
}

/** One line of settings: "Subject: person · Edge softness: 3". */
export function Settings({ items }: { items: Array<[string, ReactNode]> }) {
  return (
    <dl className="flex flex-wrap gap-x-3 gap-y-0.5 text-xs text-slate-600">
      {items.map(([k, v]) => (
        <div key={k} className="flex gap-1">
          <dt className="text-slate-500">{k}:</dt>
          <dd className="font-medium text-slate-700">{v}</dd>
        </div>
      ))}
    </dl>
  );
}
