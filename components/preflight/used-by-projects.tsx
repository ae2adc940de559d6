"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { studioApi, unwrap } from "@/lib/client/typed-api";

/** The projects that use a report (GET /v1/projects?preflight_report_id=), so a failing report's consequences are visible. */
export function UsedByProjects({ reportId }: { reportId: string }) {
  const projects = useQuery({
    queryKey: ["core", "projects", "by-report", reportId],
    queryFn: async () => unwrap(await studioApi.GET("/v1/projects", { params: { query: { preflight_report_id: reportId, limit: "50", sortBy: "updated_at", order: "desc" } } })),
  });
  return (
    <section aria-label="Projects using this report" className="rounded-lg border border-slate-200 bg-white p-4 text-sm shadow-sm" data-testid="used-by-projects">
      <h2 className="text-base font-semibold text-slate-900">Projects using this report</h2>
      {projects.isPending ? (
        <p className="mt-2 text-slate-500">Loading…</p>
      ) : projects.error ? (
        <p className="mt-2 text-red-700">The projects could not be loaded: {projects.error.message}</p>
      ) : projects.data.data.length === 0 ? (
        <p className="mt-2 text-slate-500">No project uses this report.</p>
      ) : (
        <ul className="mt-2 space-y-1">
          {projects.data.data.map((p) => (
            <li key={p.id} className="flex flex-wrap items-center gap-2">
              <Link href={`/projects/${encodeURIComponent(p.id)}`} className="font-medium text-brand-700 hover:underline">
                {p.name}
              </Link>
              <span className="text-xs text-slate-500">{p.status.replace(/_/g, " ")}</span>
              {p.preflight_overrides?.length ? <span className="rounded bg-amber-100 px-1.5 text-xs text-amber-800">went ahead despite errors</span> : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
