"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Card } from "@/components/ui/card";
import { EmptyState, ListSkeleton } from "@/components/ui/list-states";
import { DataTable, type Column } from "@/components/ui/data-table";
import { studioApi, unwrap } from "@/lib/client/typed-api";
import { PaginationControls } from "@/components/ui/pagination-controls";
import { QueryError } from "@/components/ui/query-error";
import { TransactionRow } from "./transaction-row";
import { useStudioRole } from "@/components/account/use-studio-role";

const PAGE_SIZE = 20;

const COLUMNS: readonly Column[] = [
  { label: "Date" },
  { label: "Type" },
  { label: "Operation" },
  { label: "By" },
  { label: "Reference / note" },
  { label: "Amount", align: "right" },
  { label: "Balance after", align: "right" },
];

/** The ledger, newest first (GET /v1/wallet/transactions), one page at a time. */
export function TransactionsCard() {
  const role = useStudioRole();
  const [page, setPage] = useState(1);
  const [spentBy, setSpentBy] = useState("");
  const { data, error, isPending, isFetching, isPlaceholderData, refetch } = useQuery({
    queryKey: ["wallet", "transactions", page, spentBy],
    queryFn: async () =>
      unwrap(await studioApi.GET("/v1/wallet/transactions", { params: { query: { limit: String(PAGE_SIZE), page: String(page), ...(spentBy ? { spent_by: spentBy } : {}) } } })),
    placeholderData: keepPreviousData,
  });
  // The filter lists the studio's members (a studio of one has nothing to filter).
  const members = useQuery({ queryKey: ["team", "members"], queryFn: async () => unwrap(await studioApi.GET("/v1/members", { params: { query: { limit: "100" } } })) });
  const people = members.data?.data ?? [];

  return (
    <Card title="Transactions">
      {people.length > 1 ? (
        <label className="mb-3 flex items-center gap-2 text-sm text-slate-700">
          Spent by
          <select
            className="rounded-md border border-slate-300 px-2 py-1 text-sm"
            value={spentBy}
            onChange={(e) => {
              setSpentBy(e.target.value);
              setPage(1);
            }}
          >
            <option value="">Everyone</option>
            {people.map((m) => (
              <option key={m.user_id} value={m.user_id}>
                {m.name}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      {isPending ? (
        <ListSkeleton label="Loading transactions…" />
      ) : error && !data ? (
        <QueryError title="Could not load transactions." error={error} onRetry={() => void refetch()} />
      ) : data.data.length === 0 ? (
        <EmptyState>No transactions yet. Grants, debits and refunds will appear here.</EmptyState>
      ) : (
        <div className="space-y-4">
          {error ? <QueryError title="Could not load that page." error={error} onRetry={() => void refetch()} /> : null}
          <DataTable caption="Wallet transactions, newest first" columns={COLUMNS} stale={isPlaceholderData} busy={isFetching && isPlaceholderData}>
            {data.data.map((tx) => (
              <TransactionRow key={tx.id} tx={tx} receipts={role === "owner"} />
            ))}
          </DataTable>
          <PaginationControls meta={data.meta} onPageChange={setPage} disabled={isPlaceholderData} label="Transactions pages" />
        </div>
      )}
    </Card>
  );
}
