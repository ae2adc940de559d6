// Public API of the safe fetcher. Import from "@/lib/domain/net", not the files behind it.
export { isForbiddenAddress } from "./ip-policy";
export { checkFetchableUrl, type CheckUrlOptions } from "./check-url";
export { safeFetch, type SafeFetchOptions, type SafeFetchResult } from "./safe-fetch";
export { UrlNotAllowedError, FetchFailedError, type FetchFailureKind, toApiError } from "./errors";
export type { LookupFn, ResolvedAddress } from "./resolve-host";
