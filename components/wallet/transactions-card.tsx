"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Card } from "@/components/ui/card";
import { apiFetch } from "@/lib/client/api-fetch";
import { PaginationControls } from "./pagination-controls";
import { QueryError } from "./query-error";
import { TransactionRow } from "./transaction-row";
import type { Paginated, WalletTransaction } from "./types";

const PAGE_SIZE = 20;

/** The ledger, newest first (GET /v1/wallet/transactions), one page at a time. */
export function TransactionsCard() {
  const [page, setPage] = useState(1);
  const { data, error, isPending, isFetching, isPlaceholderData, refetch } = useQuery({
    queryKey: ["wallet", "transactions", page],
    queryFn: () => apiFetch<Paginated<WalletTransaction>>(`/v1/wallet/transactions?limit=${PAGE_SIZE}&page=${page}`),
    placeholderData: keepPreviousData,
  });

  return (
    <Card title="Transactions">
      {isPending ? (
        <div role="status" className="space-y-2">
          <span className="sr-only">Loading transactions…</span>
          {Array.from({ length: 4 }, (_, i) => (
            <div key={i} className="h-10 animate-pulse rounded bg-slate-100" />
          ))}
        </div>
      ) : error && !data ? (
        <QueryError title="Could not load transactions." error={error} onRetry={() => void refetch()} />
      ) : data.data.length === 0 ? (
        <p className="rounded-md border border-dashed border-slate-200 py-10 text-center text-sm text-slate-500">
          No transactions yet. Grants, debits and refunds will appear here.
        </p>
      ) : (
        <div className="space-y-4">
          {error ? <QueryError title="Could not load that page." error={error} onRetry={() => void refetch()} /> : null}
          <div className="-mx-5 overflow-x-auto">
            <table className="w-full text-left text-sm" aria-busy={isFetching && isPlaceholderData}>
              <caption className="sr-only">Wallet transactions, newest first</caption>
              <thead className="border-y border-slate-200 bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
                <tr>
                  <th scope="col" className="px-4 py-2 font-medium">Date</th>
                  <th scope="col" className="px-4 py-2 font-medium">Type</th>
                  <th scope="col" className="px-4 py-2 font-medium">Operation</th>
                  <th scope="col" className="px-4 py-2 font-medium">Reference / note</th>
                  <th scope="col" className="px-4 py-2 text-right font-medium">Amount</th>
                  <th scope="col" className="px-4 py-2 text-right font-medium">Balance after</th>
                </tr>
              </thead>
              <tbody className={`divide-y divide-slate-100 ${isPlaceholderData ? "opacity-60" : ""}`}>
                {data.data.map((tx) => (
                  <TransactionRow key={tx.id} tx={tx} />
                ))}
              </tbody>
            </table>
          </div>
          <PaginationControls meta={data.meta} onPageChange={setPage} disabled={isPlaceholderData} label="Transactions pages" />
        </div>
      )}
    </Card>
  );
}
