"use client";

import { useQuery } from "@tanstack/react-query";
import { productsQueryKey } from "../types";
import { studioApi, unwrap } from "@/lib/client/typed-api";

/** Up to 100 products by name, for pickers and for naming a project's product. */
export function useProductOptions(status?: "active") {
  const query = { limit: "100", sortBy: "name", ...(status ? { status } : {}) } as const;
  return useQuery({
    queryKey: [...productsQueryKey, "options", status ?? "all"],
    queryFn: async () => unwrap(await studioApi.GET("/v1/products", { params: { query } })),
    staleTime: 30_000,
  });
}
