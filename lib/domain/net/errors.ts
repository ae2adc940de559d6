import { STATUS_CODES } from "node:http";
import { ApiError } from "@/lib/foundation/http/api-error";

/**
 * Errors of the safe fetcher. Their messages are written for end users: a job
 * that fails to fetch its source stores `err.message` as its error_message.
 */

/** The URL itself is refused (scheme, credentials, private address). Always the caller's fault. */
export class UrlNotAllowedError extends Error {
  constructor(readonly reason: string) {
    super(`The URL is not allowed: ${reason}.`);
    this.name = "UrlNotAllowedError";
  }
}

export type FetchFailureKind = "unreachable" | "http_status" | "too_large" | "timeout" | "too_many_redirects" | "empty";

/** The URL was acceptable but fetching it did not produce a usable file. */
export class FetchFailedError extends Error {
  constructor(
    readonly kind: FetchFailureKind,
    message: string,
    /** The upstream HTTP status, for kind "http_status". */
    readonly status?: number,
  ) {
    super(message);
    this.name = "FetchFailedError";
  }

  static httpStatus(status: number): FetchFailedError {
    const text = STATUS_CODES[status];
    return new FetchFailedError("http_status", `The source URL answered ${status}${text ? ` ${text}` : ""}.`, status);
  }

  static tooLarge(maxBytes: number): FetchFailedError {
    return new FetchFailedError("too_large", `The file is larger than the ${formatBytes(maxBytes)} limit.`);
  }
}

/** 52428800 -> "50 MB"; binary units because that is how the limits are configured. */
export function formatBytes(n: number): string {
  const units = ["bytes", "KB", "MB", "GB"];
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const shown = Number.isInteger(value) ? String(value) : value.toFixed(1);
  return `${shown} ${units[unit]}`;
}

/**
 * Turns a fetcher error into the API error for the request field that carried the
 * URL; anything else is returned unchanged so `throw toApiError(err, "url")` keeps
 * unexpected errors on the generic 500 path. Fetched files that are too big are a
 * 400 FILE_TOO_LARGE: 413 describes the request body, which was small.
 */
export function toApiError(err: UrlNotAllowedError | FetchFailedError, field: string): ApiError;
export function toApiError(err: unknown, field: string): unknown;
export function toApiError(err: unknown, field: string): unknown {
  if (err instanceof UrlNotAllowedError) {
    return new ApiError(400, "URL_NOT_ALLOWED", err.message, { field, reason: err.reason });
  }
  if (err instanceof FetchFailedError) {
    const code = err.kind === "too_large" ? "FILE_TOO_LARGE" : "SOURCE_UNREACHABLE";
    const details: Record<string, unknown> = { field, reason: err.kind };
    if (err.status !== undefined) details.upstream_status = err.status;
    return new ApiError(400, code, err.message, details);
  }
  return err;
}
