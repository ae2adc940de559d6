"use client";

import { useQuery } from "@tanstack/react-query";
import { Card } from "@/components/ui/card";
import { DataTable, type Column } from "@/components/ui/data-table";
import { EmptyState, ListSkeleton } from "@/components/ui/list-states";
import { QueryError } from "@/components/ui/query-error";
import { studioApi, unwrap } from "@/lib/client/typed-api";
import { formatMoney } from "./format";

const COLUMNS: readonly Column[] = [{ label: "Job" }, { label: "Orders", align: "right" }, { label: "Gross", align: "right" }, { label: "Refunds", align: "right" }, { label: "Fees", align: "right" }, { label: "Lab cost", align: "right" }, { label: "Net", align: "right" }];

/** Sales per job (admins): what parents paid, what went back, fees, lab cost and what the studio keeps; the same as CSV. */
export function SalesCard() {
  const { data, error, isPending, refetch } = useQuery({ queryKey: ["orders", "sales"], queryFn: async () => unwrap(await studioApi.GET("/v1/orders/sales")) });
  return (
    <Card
      title="Sales per job"
      actions={
        <a className="text-sm text-sky-700 underline" href="/v1/orders/sales.csv" download>
          Download CSV
        </a>
      }
    >
      {isPending ? (
        <ListSkeleton label="Loading sales" rows={2} />
      ) : error || !data ? (
        <QueryError title="Could not load the sales." error={error} onRetry={() => void refetch()} />
      ) : data.data.length === 0 ? (
        <EmptyState>No paid orders yet.</EmptyState>
      ) : (
        <DataTable caption="Sales per job" columns={COLUMNS}>
          {data.data.map((r) => (
            <tr key={`${r.job_id}-${r.currency}`}>
              <td className="px-4 py-2">{r.job_name ?? "(deleted job)"}</td>
              <td className="px-4 py-2 text-right tabular-nums">{r.orders}</td>
              <td className="px-4 py-2 text-right tabular-nums">{formatMoney(r.gross, r.currency)}</td>
              <td className="px-4 py-2 text-right tabular-nums">{formatMoney(r.refunds, r.currency)}</td>
              <td className="px-4 py-2 text-right tabular-nums">{formatMoney(r.fees, r.currency)}</td>
              <td className="px-4 py-2 text-right tabular-nums">{formatMoney(r.lab_cost, r.currency)}</td>
              <td className="px-4 py-2 text-right font-medium tabular-nums">{formatMoney(r.net, r.currency)}</td>
            </tr>
          ))}
        </DataTable>
      )}
    </Card>
  );
}
