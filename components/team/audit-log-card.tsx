"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Card } from "@/components/ui/card";
import { DataTable, type Column } from "@/components/ui/data-table";
import { EmptyState, ListSkeleton } from "@/components/ui/list-states";
import { PaginationControls } from "@/components/ui/pagination-controls";
import { QueryError } from "@/components/ui/query-error";
import { studioApi, unwrap } from "@/lib/client/typed-api";
import type { AuditEvent } from "./types";

const COLUMNS: readonly Column[] = [{ label: "When" }, { label: "Who" }, { label: "What" }, { label: "Details" }, { label: "From" }];
const PAGE_SIZE = 50;

/** "member.role_changed" -> "Member role changed". */
function actionLabel(action: string) {
  const text = action.replace(/[._]/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function details(e: AuditEvent) {
  const entries = Object.entries(e.data).filter(([, v]) => v !== null && v !== undefined && typeof v !== "object");
  return entries.map(([k, v]) => `${k.replace(/_/g, " ")}: ${String(v)}`).join(" · ") || e.target || "—";
}

/** The studio's audit log, newest first (GET /v1/audit-log). */
export function AuditLogCard() {
  const [page, setPage] = useState(1);
  const { data, error, isPending, isPlaceholderData, refetch } = useQuery({
    queryKey: ["audit-log", page],
    queryFn: async () => unwrap(await studioApi.GET("/v1/audit-log", { params: { query: { limit: String(PAGE_SIZE), page: String(page) } } })),
    placeholderData: keepPreviousData,
  });
  return (
    <Card title="Audit log">
      {isPending ? (
        <ListSkeleton label="Loading the audit log…" />
      ) : error && !data ? (
        <QueryError title="Could not load the audit log." error={error} onRetry={() => void refetch()} />
      ) : data.data.length === 0 ? (
        <EmptyState>Nothing recorded yet.</EmptyState>
      ) : (
        <div className="space-y-4">
          <DataTable caption="Audit log, newest first" columns={COLUMNS} stale={isPlaceholderData}>
            {data.data.map((e) => (
              <tr key={e.id} data-testid="audit-row" className="align-top">
                <td className="whitespace-nowrap px-4 py-3 text-slate-600">
                  <time dateTime={e.created_at}>{new Date(e.created_at).toLocaleString()}</time>
                </td>
                <td className="px-4 py-3 text-slate-900">{e.actor.name ?? (e.actor.type === "system" ? "The system" : e.actor.type)}</td>
                <td className="px-4 py-3">{actionLabel(e.action)}</td>
                <td className="max-w-sm break-words px-4 py-3 text-slate-600">{details(e)}</td>
                <td className="px-4 py-3 font-mono text-xs text-slate-500">{e.ip ?? "—"}</td>
              </tr>
            ))}
          </DataTable>
          <PaginationControls meta={data.meta} onPageChange={setPage} disabled={isPlaceholderData} label="Audit log pages" />
        </div>
      )}
    </Card>
  );
}
