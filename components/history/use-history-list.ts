"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { Paginated } from "@/lib/client/list-envelopes";
import { pageFromParam, useSetQueryParams } from "@/lib/client/use-query-param";
import { studioApi, unwrap, type ApiResponse } from "@/lib/client/typed-api";
import { useSearchParams } from "next/navigation";

const POLL_MS = 2_000;

/** What a history list's loader is asked for: the URL's page and status filter. */
export type HistoryQuery = { limit: string; page: string; status?: string };
/** A page-numbered list as /v1 answers it (the item type comes from the route's OpenAPI schema). */
type HistoryPage<T> = Pick<Paginated<T>, "data" | "links" | "meta">;

type BgRemoveJob = ApiResponse<"/v1/services/bg-remove", "get">["data"][number];

/**
 * A history list of one billed operation (GET /v1/...?page=&status=), its page and
 * status filter kept in the URL (`?page=`, `?status=`) so a reload or Back shows
 * the same list. Polled every 2 s while `isRunning` says an item is still at work.
 *
 * `load` fetches one page through the typed client (so the items are the route's
 * OpenAPI shape). The path form is background removal's, kept until that page passes a loader.
 */
export function useHistoryList<T extends BgRemoveJob = BgRemoveJob>(path: "/v1/services/bg-remove", queryKey: readonly unknown[], isRunning: (item: T) => boolean, perPage?: number): ReturnType<typeof useHistoryListOf<BgRemoveJob>>;
export function useHistoryList<T>(load: (q: HistoryQuery) => Promise<HistoryPage<T>>, queryKey: readonly unknown[], isRunning: (item: T) => boolean, perPage?: number): ReturnType<typeof useHistoryListOf<T>>;
export function useHistoryList<T>(source: "/v1/services/bg-remove" | ((q: HistoryQuery) => Promise<HistoryPage<T>>), queryKey: readonly unknown[], isRunning: (item: T) => boolean, perPage = 12) {
  const load =
    typeof source === "function"
      ? source
      : async ({ status, ...q }: HistoryQuery) => unwrap(await studioApi.GET(source, { params: { query: { ...q, ...(status ? { status: status as BgRemoveJob["status"] } : {}) } } })) as unknown as HistoryPage<T>;
  return useHistoryListOf(load, queryKey, isRunning, perPage);
}

function useHistoryListOf<T>(load: (q: HistoryQuery) => Promise<HistoryPage<T>>, queryKey: readonly unknown[], isRunning: (item: T) => boolean, perPage = 12) {
  const params = useSearchParams();
  const setParams = useSetQueryParams();
  const page = pageFromParam(params.get("page"));
  const status = params.get("status");
  const query = useQuery({
    queryKey: [...queryKey, "history", page, status ?? ""],
    queryFn: () => load({ limit: String(perPage), page: String(page), ...(status ? { status } : {}) }),
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
