import { config } from "@/lib/foundation/config";
import { storage } from "@/lib/domain/storage";
import { checkFetchableUrl, FetchFailedError, safeFetch, toApiError } from "@/lib/domain/net";
import { detectType } from "./detect-type";

export type SourceFile = { bytes: Buffer; mime: string | undefined; fromStorage: boolean };

/**
 * Request-time check of a caller-supplied URL (image_url, fileUrl, logo_url ...):
 * our own signed URLs pass; anything else must be a public http(s) address.
 * Throws a 400 naming `field`, so a refused URL is never charged.
 */
export async function checkSourceUrl(url: string, field: string): Promise<void> {
  if (storage().keyFromOwnUrl(url)) return;
  try {
    await checkFetchableUrl(url);
  } catch (err) {
    throw toApiError(err, field);
  }
}

/**
 * The bytes behind a caller-supplied URL, for jobs. URLs this app signed are
 * read straight from storage (no HTTP round trip to ourselves); anything else
 * goes through the safe fetcher. Throws FetchFailedError/UrlNotAllowedError,
 * whose messages are written for people (a job's error_message).
 */
export async function fetchSource(url: string, opts: { maxBytes?: number; signal?: AbortSignal } = {}): Promise<SourceFile> {
  const maxBytes = opts.maxBytes ?? config().MAX_IMAGE_BYTES;
  const key = storage().keyFromOwnUrl(url);
  if (key) {
    const object = await storage().get(key);
    if (!object) throw new FetchFailedError("unreachable", "The uploaded file no longer exists.");
    if (object.body.byteLength > maxBytes) throw FetchFailedError.tooLarge(maxBytes);
    return { bytes: object.body, mime: (await detectType(object.body))?.mime, fromStorage: true };
  }
  const res = await safeFetch(url, { maxBytes, signal: opts.signal });
  return { bytes: res.bytes, mime: res.mime, fromStorage: false };
}
