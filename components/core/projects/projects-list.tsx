"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { Card } from "@/components/ui/card";
import { QueryError } from "@/components/wallet/query-error";
import { apiFetch } from "@/lib/client/api-fetch";
import { PROJECT_STATUSES, PROJECT_STATUS_LABELS, type ProjectStatus } from "@/lib/services/core/project-status";
import { CursorPager } from "../cursor-pager";
import { formatDate } from "../format";
import { ProjectStatusBadge } from "../status-badge";
import { projectsQueryKey, type CoreList, type Project } from "../types";
import { useProductOptions } from "./use-product-options";

const PAGE_SIZE = 20;

/** Projects by status (tabs), most recently updated first. */
export function ProjectsList() {
  const [status, setStatus] = useState<ProjectStatus | "">("");
  const [cursor, setCursor] = useState<string | null>(null);
  const params = new URLSearchParams({ limit: String(PAGE_SIZE), sortBy: "updated_at", order: "desc" });
  if (status) params.set("status", status);
  if (cursor) params.set("cursor", cursor);
  const { data, error, isPending, isPlaceholderData, refetch } = useQuery({
    queryKey: [...projectsQueryKey, "list", params.toString()],
    queryFn: () => apiFetch<CoreList<Project>>(`/v1/projects?${params}`),
    placeholderData: keepPreviousData,
  });
  const products = useProductOptions();
  const productName = (id: string) => products.data?.data.find((p) => p.id === id)?.name ?? id;
  const tabs: { value: ProjectStatus | ""; label: string }[] = [{ value: "", label: "All" }, ...PROJECT_STATUSES.map((s) => ({ value: s, label: PROJECT_STATUS_LABELS[s] }))];

  return (
    <Card title="Projects">
      <div role="tablist" aria-label="Filter by status" className="mb-4 flex flex-wrap gap-1">
        {tabs.map((t) => (
          <button
            key={t.value || "all"}
            type="button"
            role="tab"
            aria-selected={status === t.value}
            onClick={() => {
              setStatus(t.value);
              setCursor(null);
            }}
            className={`rounded-md px-3 py-1.5 text-sm ${status === t.value ? "bg-brand-50 font-medium text-brand-700" : "text-slate-600 hover:bg-slate-100"}`}
          >
            {t.label}
          </button>
        ))}
      </div>
      {isPending ? (
        <div role="status" className="space-y-2">
          <span className="sr-only">Loading projects…</span>
          {Array.from({ length: 4 }, (_, i) => (
            <div key={i} className="h-10 animate-pulse rounded bg-slate-100" />
          ))}
        </div>
      ) : error && !data ? (
        <QueryError title="Could not load projects." error={error} onRetry={() => void refetch()} />
      ) : data.data.length === 0 ? (
        <p className="rounded-md border border-dashed border-slate-200 py-10 text-center text-sm text-slate-500">
          {status ? `No ${PROJECT_STATUS_LABELS[status].toLowerCase()} projects.` : "No projects yet."}
        </p>
      ) : (
        <div className="space-y-4">
          <div className="-mx-5 overflow-x-auto">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Projects</caption>
              <thead className="border-y border-slate-200 bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
                <tr>
                  <th scope="col" className="px-4 py-2 font-medium">Project</th>
                  <th scope="col" className="px-4 py-2 font-medium">Product</th>
                  <th scope="col" className="px-4 py-2 font-medium">Customer</th>
                  <th scope="col" className="px-4 py-2 font-medium">Preflight</th>
                  <th scope="col" className="px-4 py-2 font-medium">Status</th>
                  <th scope="col" className="px-4 py-2 font-medium">Updated</th>
                </tr>
              </thead>
              <tbody className={`divide-y divide-slate-100 ${isPlaceholderData ? "opacity-60" : ""}`}>
                {data.data.map((p) => (
                  <tr key={p.id}>
                    <td className="px-4 py-2 font-medium text-slate-900">
                      <Link href={`/projects/${encodeURIComponent(p.id)}`} className="hover:text-brand-700 hover:underline">
                        {p.name}
                      </Link>
                    </td>
                    <td className="px-4 py-2 text-slate-600">{productName(p.product_id)}</td>
                    <td className="px-4 py-2 text-slate-600">{p.customer_email ?? "—"}</td>
                    <td className="px-4 py-2 font-mono text-xs text-slate-600">{p.preflight_report_id ?? "—"}</td>
                    <td className="px-4 py-2">
                      <ProjectStatusBadge status={p.status} />
                    </td>
                    <td className="px-4 py-2 text-slate-600">{formatDate(p.updated_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <CursorPager links={data.links} onCursor={setCursor} disabled={isPlaceholderData} label="Project pages" />
        </div>
      )}
    </Card>
  );
}
