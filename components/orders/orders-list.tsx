"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { Card } from "@/components/ui/card";
import { DataTable, type Column } from "@/components/ui/data-table";
import { Field, SelectField } from "@/components/ui/field";
import { EmptyState, ListSkeleton } from "@/components/ui/list-states";
import { PaginationControls } from "@/components/ui/pagination-controls";
import { QueryError } from "@/components/ui/query-error";
import { studioApi, unwrap, type ApiResponse } from "@/lib/client/typed-api";
import { formatMoney, statusLabel } from "./format";

type OrderStatus = NonNullable<ApiResponse<"/v1/orders", "get">["data"][number]["status"]>;
const STATUSES: OrderStatus[] = ["pending", "paid", "in_production", "shipped", "delivered", "canceled", "refunded"];
const COLUMNS: readonly Column[] = [{ label: "Order" }, { label: "Placed" }, { label: "Parent" }, { label: "Items", align: "right" }, { label: "Total", align: "right" }, { label: "Status" }];

/** Parents' orders, newest first, filtered by job, status and dates. */
export function OrdersList() {
  const [status, setStatus] = useState("");
  const [jobId, setJobId] = useState("");
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const [page, setPage] = useState(1);
  const query = {
    page: String(page),
    limit: "20",
    ...(status ? { status: status as OrderStatus } : {}),
    ...(/^\d+$/.test(jobId) ? { job_id: jobId } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
  };
  const { data, error, isPending, isPlaceholderData, refetch } = useQuery({
    queryKey: ["orders", "list", query],
    queryFn: async () => unwrap(await studioApi.GET("/v1/orders", { params: { query } })),
    placeholderData: keepPreviousData,
  });
  const reset = <T,>(set: (v: T) => void) => (v: T) => {
    set(v);
    setPage(1);
  };
  return (
    <Card title="Orders">
      <div className="mb-4 grid gap-3 sm:grid-cols-4">
        <SelectField id="order-status" label="Status" value={status} onChange={(e) => reset(setStatus)(e.target.value)} options={[{ value: "", label: "All" }, ...STATUSES.map((s) => ({ value: s, label: statusLabel(s) }))]} />
        <Field id="order-job" label="Job id" inputMode="numeric" value={jobId} onChange={(e) => reset(setJobId)(e.target.value.trim())} />
        <Field id="order-from" label="From" type="date" value={from} onChange={(e) => reset(setFrom)(e.target.value)} />
        <Field id="order-to" label="To" type="date" value={to} onChange={(e) => reset(setTo)(e.target.value)} />
      </div>
      {isPending ? (
        <ListSkeleton label="Loading orders" />
      ) : error || !data ? (
        <QueryError title="Could not load the orders." error={error} onRetry={() => void refetch()} />
      ) : data.data.length === 0 ? (
        <EmptyState>No orders{status || jobId || from || to ? " match these filters" : " yet: parents' orders appear here once they pay"}.</EmptyState>
      ) : (
        <>
          <DataTable caption="Orders" columns={COLUMNS} stale={isPlaceholderData}>
            {data.data.map((o) => (
              <tr key={o.id}>
                <td className="px-4 py-2">
                  <Link className="font-mono text-xs text-sky-700 underline" href={`/orders/${o.id}`}>
                    {o.id}
                  </Link>
                </td>
                <td className="px-4 py-2">{new Date(o.created_at).toLocaleString()}</td>
                <td className="px-4 py-2">{o.email}</td>
                <td className="px-4 py-2 text-right tabular-nums">{o.item_count}</td>
                <td className="px-4 py-2 text-right tabular-nums">{formatMoney(o.total, o.currency)}</td>
                <td className="px-4 py-2">
                  {statusLabel(o.status)}
                  {o.disputed ? <span className="ml-2 rounded bg-red-50 px-1.5 text-xs text-red-700">disputed</span> : null}
                </td>
              </tr>
            ))}
          </DataTable>
          <PaginationControls className="mt-4" meta={data.meta} onPageChange={setPage} disabled={isPlaceholderData} label="Orders pages" />
        </>
      )}
    </Card>
  );
}
