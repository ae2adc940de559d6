"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { Card } from "@/components/ui/card";
import { EmptyState, ListSkeleton } from "@/components/ui/list-states";
import { DataTable, type Column } from "@/components/ui/data-table";
import { QueryError } from "@/components/ui/query-error";
import { PROJECT_STATUSES, PROJECT_STATUS_LABELS, type ProjectStatus } from "@/lib/services/core/project-status";
import { CursorPager } from "@/components/ui/cursor-pager";
import { formatDate } from "../format";
import { ProjectStatusBadge } from "../status-badge";
import { projectsQueryKey } from "../types";
import { useProductOptions } from "./use-product-options";
import { studioApi, unwrap } from "@/lib/client/typed-api";

const PAGE_SIZE = 20;

const COLUMNS: readonly Column[] = [
  { label: "Project" },
  { label: "Product" },
  { label: "Customer" },
  { label: "Preflight" },
  { label: "Status" },
  { label: "Updated" },
];

/** Projects by status (tabs), most recently updated first. */
export function ProjectsList() {
  const [status, setStatus] = useState<ProjectStatus | "">("");
  const [cursor, setCursor] = useState<string | null>(null);
  const query = { limit: String(PAGE_SIZE), sortBy: "updated_at", order: "desc", ...(status ? { status } : {}), ...(cursor ? { cursor } : {}) } as const;
  const { data, error, isPending, isPlaceholderData, refetch } = useQuery({
    queryKey: [...projectsQueryKey, "list", query],
    queryFn: async () => unwrap(await studioApi.GET("/v1/projects", { params: { query } })),
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
        <ListSkeleton label="Loading projects…" />
      ) : error && !data ? (
        <QueryError title="Could not load projects." error={error} onRetry={() => void refetch()} />
      ) : data.data.length === 0 ? (
        <EmptyState>{status ? `No ${PROJECT_STATUS_LABELS[status].toLowerCase()} projects.` : "No projects yet."}</EmptyState>
      ) : (
        <div className="space-y-4">
          <DataTable caption="Projects" columns={COLUMNS} stale={isPlaceholderData}>
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
          </DataTable>
          <CursorPager links={data.links} onCursor={setCursor} disabled={isPlaceholderData} label="Project pages" />
        </div>
      )}
    </Card>
  );
}
