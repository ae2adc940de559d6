"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Card } from "@/components/ui/card";
import { PaginationControls } from "@/components/wallet/pagination-controls";
import { QueryError } from "@/components/wallet/query-error";
import type { Paginated } from "@/components/wallet/types";
import { apiFetch } from "@/lib/client/api-fetch";
import { ApiKeyRow } from "./api-key-row";
import { apiKeysQueryKey, type ApiKey } from "./types";

const PAGE_SIZE = 20;

/** Live (unrevoked) keys, newest first. */
export function ApiKeysCard() {
  const [page, setPage] = useState(1);
  const { data, error, isPending, isPlaceholderData, refetch } = useQuery({
    queryKey: [...apiKeysQueryKey, page],
    queryFn: () => apiFetch<Paginated<ApiKey>>(`/v1/api-keys?limit=${PAGE_SIZE}&page=${page}`),
    placeholderData: keepPreviousData,
  });

  // Revoking the only key on a later page would leave an empty page behind.
  const onRevoked = () => {
    if (data && data.data.length === 1 && page > 1) setPage(page - 1);
  };

  return (
    <Card title="Your keys" actions={data ? <span className="text-sm text-slate-500">{data.meta.total} active</span> : undefined}>
      {isPending ? (
        <div role="status" className="space-y-2">
          <span className="sr-only">Loading API keys…</span>
          {Array.from({ length: 3 }, (_, i) => (
            <div key={i} className="h-10 animate-pulse rounded bg-slate-100" />
          ))}
        </div>
      ) : error && !data ? (
        <QueryError title="Could not load API keys." error={error} onRetry={() => void refetch()} />
      ) : data.data.length === 0 ? (
        <p className="rounded-md border border-dashed border-slate-200 py-10 text-center text-sm text-slate-500">
          No API keys yet. Create one above to call the API from your own software.
        </p>
      ) : (
        <div className="space-y-4">
          {error ? <QueryError title="Could not refresh the list." error={error} onRetry={() => void refetch()} /> : null}
          <div className="-mx-5 overflow-x-auto">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Active API keys</caption>
              <thead className="border-y border-slate-200 bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
                <tr>
                  <th scope="col" className="px-4 py-2 font-medium">Name</th>
                  <th scope="col" className="px-4 py-2 font-medium">Key</th>
                  <th scope="col" className="px-4 py-2 font-medium">Created</th>
                  <th scope="col" className="px-4 py-2 font-medium">Last used</th>
                  <th scope="col" className="px-4 py-2 text-right font-medium">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody className={`divide-y divide-slate-100 ${isPlaceholderData ? "opacity-60" : ""}`}>
                {data.data.map((key) => (
                  <ApiKeyRow key={key.id} apiKey={key} onRevoked={onRevoked} />
                ))}
              </tbody>
            </table>
          </div>
          {data.meta.last_page > 1 ? (
            <PaginationControls meta={data.meta} onPageChange={setPage} disabled={isPlaceholderData} label="API key pages" />
          ) : null}
        </div>
      )}
    </Card>
  );
}
