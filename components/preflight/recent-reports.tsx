"use client";

import { useQuery } from "@tanstack/react-query";
import { studioApi, unwrap } from "@/lib/client/typed-api";
import { StatusBadge } from "./status-badge";
import { summaryText } from "./types";

export const RECENT_REPORTS_KEY = ["preflight", "reports"] as const;

/** The account's latest reports (GET /v1/services/preflight/checks), newest first. */
export function RecentReports({ selectedId, onSelect }: { selectedId: string | null; onSelect: (id: string) => void }) {
  const { data, error, isPending } = useQuery({
    queryKey: RECENT_REPORTS_KEY,
    queryFn: async () => unwrap(await studioApi.GET("/v1/services/preflight/checks", { params: { query: { limit: "8" } } })),
  });
  if (isPending) return <p className="text-sm text-slate-500">Loading reports…</p>;
  if (error) return <p role="alert" className="text-sm text-red-700">Could not load reports: {error.message}</p>;
  if (data.data.length === 0) return <p className="text-sm text-slate-500">No reports yet: check a file to see one here.</p>;
  return (
    <ul className="divide-y divide-slate-100" aria-label="Recent reports">
      {data.data.map((r) => (
        <li key={r.reportId}>
          <button
            type="button"
            onClick={() => onSelect(r.reportId)}
            aria-current={selectedId === r.reportId ? "true" : undefined}
            className={`flex w-full items-center justify-between gap-3 px-2 py-2 text-left text-sm ${selectedId === r.reportId ? "bg-brand-50" : "hover:bg-slate-50"}`}
          >
            <span className="min-w-0">
              <span className="block truncate font-medium text-slate-800">{r.designId}</span>
              <span className="text-xs text-slate-500">
                {r.fileType.toUpperCase()} · {new Date(r.createdAt).toLocaleString()} · {summaryText(r.summary)}
              </span>
            </span>
            <StatusBadge status={r.status} />
          </button>
        </li>
      ))}
    </ul>
  );
}
