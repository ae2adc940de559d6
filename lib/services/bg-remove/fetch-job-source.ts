import { config } from "@/lib/foundation/config";
import { storage } from "@/lib/domain/storage";
import { fetchSource } from "@/lib/domain/sources/fetch-source";
import { FetchFailedError, UrlNotAllowedError } from "@/lib/domain/net";
import { BgRemoveInputError, BgRemoveTransientError } from "./job-errors";
import { sourceCopyKey } from "./storage-keys";

/**
 * Gets the job's source into storage and returns its key. Our own upload URLs
 * are used in place; anything else is fetched once (SSRF-safe, size-capped)
 * and copied, so retries and later steps never fetch it again.
 */
export async function fetchJobSource(job: { id: string; accountId: string; imageUrl: string }, signal?: AbortSignal): Promise<{ key: string; bytes: number; copied: boolean }> {
  let source;
  try {
    source = await fetchSource(job.imageUrl, { maxBytes: config().MAX_IMAGE_BYTES, signal });
  } catch (err) {
    if (signal?.aborted) throw signal.reason;
    throw classifyFetchError(err);
  }
  const own = source.fromStorage ? storage().keyFromOwnUrl(job.imageUrl) : null;
  if (own) return { key: own, bytes: source.bytes.byteLength, copied: false };
  const key = sourceCopyKey(job.accountId, job.id);
  await storage().put(key, source.bytes, source.mime ?? "application/octet-stream");
  return { key, bytes: source.bytes.byteLength, copied: true };
}

function classifyFetchError(err: unknown): Error {
  if (err instanceof UrlNotAllowedError) return new BgRemoveInputError(`image_url cannot be fetched: ${err.message}`);
  if (err instanceof FetchFailedError) {
    const message = `Could not get the image from image_url: ${err.message}`;
    // A server error, a timeout or a dropped connection may pass; a 404 or an oversized file will not.
    const transient = err.kind === "unreachable" || err.kind === "timeout" || (err.kind === "http_status" && (err.status ?? 0) >= 500) || err.status === 429;
    return transient ? new BgRemoveTransientError(message, { cause: err }) : new BgRemoveInputError(message);
  }
  return err instanceof Error ? err : new Error(String(err));
}
