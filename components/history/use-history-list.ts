"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { apiFetch } from "@/lib/client/api-fetch";
import type { Paginated } from "@/lib/client/list-envelopes";
import { pageFromParam, useSetQueryParams } from "@/lib/client/use-query-param";
import { useSearchParams } from "next/navigation";

const POLL_MS = 2_000;

/**
 * A history list of one billed operation (GET /v1/...?page=&status=), its page and
 * status filter kept in the URL (`?page=`, `?status=`) so a reload or Back shows
 * the same list. Polled every 2 s while `isRunning` says an item is still at work.
 */
export function useHistoryList<T>(path: string, queryKey: readonly unknown[], isRunning: (item: T) => boolean, perPage = 12) {
  const params = useSearchParams();
  const setParams = useSetQueryParams();
  const page = pageFromParam(params.get("page"));
  const status = params.get("status");
  const q = new URLSearchParams({ limit: String(perPage), page: String(page) });
  if (status) q.set("status", status);
  const query = useQuery({
    queryKey: [...queryKey, "history", page, status ?? ""],
    queryFn: () => apiFetch<Paginated<T>>(`${path}${path.includes("?") ? "&" : "?"}${q}`),
    placeholderData: keepPreviousData,
    refetchInterval: (qr) => (qr.state.data?.data.some(isRunning) ? POLL_MS : false),
  });
  return {
    query,
    page,
    status,
    setPage: (p: number) => setParams({ page: p === 1 ? null : String(p) }),
    // A new filter starts at page 1.
    setStatus: (s: string | null) => setParams({ status: s, page: null }),
  };
}
