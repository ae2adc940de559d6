import { config } from "@/lib/foundation/config";
import { storage } from "@/lib/domain/storage";
import { fetchSource } from "@/lib/domain/sources/fetch-source";
import { FetchFailedError, UrlNotAllowedError } from "@/lib/domain/net";

export class ReferencePhotoError extends Error {
  constructor(
    readonly reason: "photo_missing" | "fetch_failed" | "url_not_allowed",
    message: string,
  ) {
    super(message);
    this.name = "ReferencePhotoError";
  }
}

/**
 * A subject's reference photo: our own upload read from storage, anything else
 * through the SSRF-safe fetcher (a URL pointing inside the network is refused
 * here too, not only when the roster was saved: DNS can change in between).
 */
export async function referencePhotoBytes(subject: { referencePhotoKey: string | null; referencePhotoUrl: string | null }, signal?: AbortSignal): Promise<Buffer> {
  if (subject.referencePhotoKey) {
    const object = await storage().get(subject.referencePhotoKey);
    if (!object) throw new ReferencePhotoError("photo_missing", "The uploaded reference photo is no longer in storage; upload it again.");
    return object.body;
  }
  try {
    return (await fetchSource(subject.referencePhotoUrl!, { maxBytes: config().MAX_IMAGE_BYTES, signal })).bytes;
  } catch (err) {
    if (err instanceof UrlNotAllowedError) throw new ReferencePhotoError("url_not_allowed", `The reference photo URL may not be fetched: ${err.message}`);
    if (err instanceof FetchFailedError) throw new ReferencePhotoError("fetch_failed", `Could not get the reference photo: ${err.message}`);
    throw err;
  }
}

/** What an embedding was made from: a changed photo (new key or URL) is embedded again. */
export const photoSourceOf = (subject: { referencePhotoKey: string | null; referencePhotoUrl: string | null }) => subject.referencePhotoKey ?? subject.referencePhotoUrl ?? "";
