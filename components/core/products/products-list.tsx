"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { QueryError } from "@/components/wallet/query-error";
import { apiFetch } from "@/lib/client/api-fetch";
import { CursorPager } from "../cursor-pager";
import { formatPrice, formatSize, productTypeLabel } from "../format";
import { SelectField } from "../select-field";
import { ProductStatusBadge } from "../status-badge";
import { productsQueryKey, type CoreList, type Product } from "../types";

const PAGE_SIZE = 20;
const SORTS = [
  { value: "created_at:desc", label: "Newest first" },
  { value: "created_at:asc", label: "Oldest first" },
  { value: "updated_at:desc", label: "Recently updated" },
  { value: "name:asc", label: "Name A–Z" },
  { value: "name:desc", label: "Name Z–A" },
];

/** The catalogue with status filter and sort, one keyset page at a time. */
export function ProductsList() {
  const [status, setStatus] = useState("");
  const [sort, setSort] = useState("created_at:desc");
  const [cursor, setCursor] = useState<string | null>(null);
  const [sortBy, order] = sort.split(":");
  const params = new URLSearchParams({ limit: String(PAGE_SIZE), sortBy: sortBy!, order: order! });
  if (status) params.set("status", status);
  if (cursor) params.set("cursor", cursor);
  const { data, error, isPending, isPlaceholderData, refetch } = useQuery({
    queryKey: [...productsQueryKey, "list", params.toString()],
    queryFn: () => apiFetch<CoreList<Product>>(`/v1/products?${params}`),
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
        <div role="status" className="space-y-2">
          <span className="sr-only">Loading products…</span>
          {Array.from({ length: 4 }, (_, i) => (
            <div key={i} className="h-10 animate-pulse rounded bg-slate-100" />
          ))}
        </div>
      ) : error && !data ? (
        <QueryError title="Could not load products." error={error} onRetry={() => void refetch()} />
      ) : data.data.length === 0 ? (
        <p className="rounded-md border border-dashed border-slate-200 py-10 text-center text-sm text-slate-500">
          {status ? `No ${status} products.` : "No products yet. Create your first one above."}
        </p>
      ) : (
        <div className="space-y-4">
          <div className="-mx-5 overflow-x-auto">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Products</caption>
              <thead className="border-y border-slate-200 bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
                <tr>
                  <th scope="col" className="px-4 py-2 font-medium">Name</th>
                  <th scope="col" className="px-4 py-2 font-medium">SKU</th>
                  <th scope="col" className="px-4 py-2 font-medium">Type</th>
                  <th scope="col" className="px-4 py-2 font-medium">Size</th>
                  <th scope="col" className="px-4 py-2 text-right font-medium">Price</th>
                  <th scope="col" className="px-4 py-2 font-medium">Status</th>
                  <th scope="col" className="px-4 py-2 text-right font-medium">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody className={`divide-y divide-slate-100 ${isPlaceholderData ? "opacity-60" : ""}`}>
                {data.data.map((p) => (
                  <ProductRow key={p.id} product={p} />
                ))}
              </tbody>
            </table>
          </div>
          <CursorPager links={data.links} onCursor={setCursor} disabled={isPlaceholderData} label="Product pages" />
        </div>
      )}
    </Card>
  );
}

function ProductRow({ product: p }: { product: Product }) {
  const queryClient = useQueryClient();
  const toggle = useMutation({
    mutationFn: () => apiFetch<Product>(`/v1/products/${encodeURIComponent(p.id)}`, { method: "PATCH", json: { status: p.status === "active" ? "archived" : "active" } }),
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
