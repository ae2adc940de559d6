"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState, ListSkeleton } from "@/components/ui/list-states";
import { DataTable, type Column } from "@/components/ui/data-table";
import { QueryError } from "@/components/ui/query-error";
import { CursorPager } from "@/components/ui/cursor-pager";
import { formatPrice, formatSize, productTypeLabel } from "../format";
import { SelectField } from "@/components/ui/field";
import { ProductStatusBadge } from "../status-badge";
import { productsQueryKey, type Product } from "../types";
import { studioApi, unwrap } from "@/lib/client/typed-api";

const PAGE_SIZE = 20;
const SORTS = [
  { value: "created_at:desc", label: "Newest first" },
  { value: "created_at:asc", label: "Oldest first" },
  { value: "updated_at:desc", label: "Recently updated" },
  { value: "name:asc", label: "Name A–Z" },
  { value: "name:desc", label: "Name Z–A" },
];

const COLUMNS: readonly Column[] = [
  { label: "Name" },
  { label: "SKU" },
  { label: "Type" },
  { label: "Size" },
  { label: "Price", align: "right" },
  { label: "Status" },
  { label: "Actions", align: "right", srOnly: true },
];

/** The catalogue with status filter and sort, one keyset page at a time. */
export function ProductsList() {
  const [status, setStatus] = useState("");
  const [sort, setSort] = useState("created_at:desc");
  const [cursor, setCursor] = useState<string | null>(null);
  const [sortBy, order] = sort.split(":");
  const query = {
    limit: String(PAGE_SIZE),
    sortBy: sortBy as "created_at" | "updated_at" | "name",
    order: order as "asc" | "desc",
    ...(status ? { status: status as Product["status"] } : {}),
    ...(cursor ? { cursor } : {}),
  };
  const { data, error, isPending, isPlaceholderData, refetch } = useQuery({
    queryKey: [...productsQueryKey, "list", query],
    queryFn: async () => unwrap(await studioApi.GET("/v1/products", { params: { query } })),
    placeholderData: keepPreviousData,
  });

  return (
    <Card title="Catalogue">
      <div className="mb-4 grid gap-3 sm:grid-cols-[12rem_12rem]">
        <SelectField
          id="product-status-filter"
          label="Status"
          value={status}
          onChange={(e) => {
            setStatus(e.target.value);
            setCursor(null);
          }}
          options={[
            { value: "", label: "All" },
            { value: "active", label: "Active" },
            { value: "archived", label: "Archived" },
          ]}
        />
        <SelectField
          id="product-sort"
          label="Sort"
          value={sort}
          onChange={(e) => {
            setSort(e.target.value);
            setCursor(null);
          }}
          options={SORTS}
        />
      </div>
      {isPending ? (
        <ListSkeleton label="Loading products…" />
      ) : error && !data ? (
        <QueryError title="Could not load products." error={error} onRetry={() => void refetch()} />
      ) : data.data.length === 0 ? (
        <EmptyState>{status ? `No ${status} products.` : "No products yet. Create your first one above."}</EmptyState>
      ) : (
        <div className="space-y-4">
          <DataTable caption="Products" columns={COLUMNS} stale={isPlaceholderData}>
            {data.data.map((p) => (
              <ProductRow key={p.id} product={p} />
            ))}
          </DataTable>
          <CursorPager links={data.links} onCursor={setCursor} disabled={isPlaceholderData} label="Product pages" />
        </div>
      )}
    </Card>
  );
}

function ProductRow({ product: p }: { product: Product }) {
  const queryClient = useQueryClient();
  const toggle = useMutation({
    mutationFn: async () => unwrap(await studioApi.PATCH("/v1/products/{id}", { params: { path: { id: p.id } }, body: { status: p.status === "active" ? "archived" : "active" } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: productsQueryKey }),
  });
  return (
    <tr>
      <td className="px-4 py-2 font-medium text-slate-900">
        <Link href={`/products/${encodeURIComponent(p.id)}`} className="hover:text-brand-700 hover:underline">
          {p.name}
        </Link>
      </td>
      <td className="px-4 py-2 font-mono text-xs text-slate-600">{p.sku}</td>
      <td className="px-4 py-2 text-slate-600">{productTypeLabel(p.product_type)}</td>
      <td className="px-4 py-2 text-slate-600">{formatSize(p.width_in, p.height_in)}</td>
      <td className="px-4 py-2 text-right tabular-nums">{formatPrice(p.price, p.currency)}</td>
      <td className="px-4 py-2">
        <ProductStatusBadge status={p.status} isPublic={p.is_public} />
      </td>
      <td className="px-4 py-2 text-right">
        <Button type="button" variant="secondary" disabled={toggle.isPending} onClick={() => toggle.mutate()} aria-label={`${p.status === "active" ? "Archive" : "Restore"} ${p.name}`}>
          {p.status === "active" ? "Archive" : "Restore"}
        </Button>
        {toggle.error ? (
          <p role="alert" className="mt-1 text-xs text-red-600">
            {toggle.error.message}
          </p>
        ) : null}
      </td>
    </tr>
  );
}
