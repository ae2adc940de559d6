"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Card } from "@/components/ui/card";
import { EmptyState, ListSkeleton } from "@/components/ui/list-states";
import { DataTable, type Column } from "@/components/ui/data-table";
import { PaginationControls } from "@/components/ui/pagination-controls";
import { QueryError } from "@/components/ui/query-error";
import { studioApi, unwrap } from "@/lib/client/typed-api";
import { ApiKeyRow } from "./api-key-row";
import { apiKeysQueryKey } from "./types";

const PAGE_SIZE = 20;

const COLUMNS: readonly Column[] = [
  { label: "Name" },
  { label: "Key" },
  { label: "Created" },
  { label: "Last used" },
  { label: "Actions", align: "right", srOnly: true },
];

/** Live (unrevoked) keys, newest first. */
export function ApiKeysCard() {
  const [page, setPage] = useState(1);
  const { data, error, isPending, isPlaceholderData, refetch } = useQuery({
    queryKey: [...apiKeysQueryKey, page],
    queryFn: async () => unwrap(await studioApi.GET("/v1/api-keys", { params: { query: { limit: String(PAGE_SIZE), page: String(page) } } })),
    placeholderData: keepPreviousData,
  });

  // Revoking the only key on a later page would leave an empty page behind.
  const onRevoked = () => {
    if (data && data.data.length === 1 && page > 1) setPage(page - 1);
  };

  return (
    <Card title="Your keys" actions={data ? <span className="text-sm text-slate-500">{data.meta.total} active</span> : undefined}>
      {isPending ? (
        <ListSkeleton label="Loading API keys…" rows={3} />
      ) : error && !data ? (
        <QueryError title="Could not load API keys." error={error} onRetry={() => void refetch()} />
      ) : data.data.length === 0 ? (
        <EmptyState>No API keys yet. Create one above to call the API from your own software.</EmptyState>
      ) : (
        <div className="space-y-4">
          {error ? <QueryError title="Could not refresh the list." error={error} onRetry={() => void refetch()} /> : null}
          <DataTable caption="Active API keys" columns={COLUMNS} stale={isPlaceholderData}>
            {data.data.map((key) => (
              <ApiKeyRow key={key.id} apiKey={key} onRevoked={onRevoked} />
            ))}
          </DataTable>
          <PaginationControls meta={data.meta} onPageChange={setPage} disabled={isPlaceholderData} label="API key pages" />
        </div>
      )}
    </Card>
  );
}
