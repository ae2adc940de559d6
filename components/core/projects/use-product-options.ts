"use client";

import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "@/lib/client/api-fetch";
import type { CursorList } from "@/lib/client/list-envelopes";
import { productsQueryKey, type Product } from "../types";

/** Up to 100 products by name, for pickers and for naming a project's product. */
export function useProductOptions(status?: "active") {
  const query = new URLSearchParams({ limit: "100", sortBy: "name" });
  if (status) query.set("status", status);
  return useQuery({
    queryKey: [...productsQueryKey, "options", status ?? "all"],
    queryFn: () => apiFetch<CursorList<Product>>(`/v1/products?${query}`),
    staleTime: 30_000,
  });
}
