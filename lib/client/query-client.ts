import { QueryClient, type RefetchOptions, type RefetchQueryFilters } from "@tanstack/react-query";

/**
 * The app's QueryClient: TanStack Query's, with one difference. Invalidating (or refetching) a
 * query whose FIRST fetch is still in flight joins that fetch instead of starting another
 * (TanStack/query#8530; query.fetch cancels a running fetch only when the query already has
 * data). That fetch may have read the server before the write being announced, so the page
 * kept the old answer: a job page showed "No photos yet" beside "1 of 1 uploaded" until it was
 * reloaded. Such first loads are cancelled (reverted) first, so the refetch reads after the write.
 */
export class AppQueryClient extends QueryClient {
  override async refetchQueries(filters?: RefetchQueryFilters, options?: RefetchOptions): Promise<void> {
    if (options?.cancelRefetch !== false) {
      const firstLoads = this.getQueryCache()
        .findAll(filters)
        .filter((query) => query.state.fetchStatus === "fetching" && query.state.data === undefined);
      await Promise.all(firstLoads.map((query) => query.cancel({ revert: true })));
    }
    return super.refetchQueries(filters, options);
  }
}

export function createQueryClient() {
  return new AppQueryClient({ defaultOptions: { queries: { staleTime: 5_000, retry: 1 } } });
}
