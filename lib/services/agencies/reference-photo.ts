import { checkSourceUrl } from "@/lib/domain/sources/fetch-source";
import { OUTPUT_URL_TTL_SECONDS, storage } from "@/lib/domain/storage";

/**
 * A subject's reference photo as stored: the URL as given, plus the storage key
 * when it is one of this account's own uploads. Signed upload URLs expire after
 * 24 hours, but a roster lives for a school year: with the key, matching can
 * still read the photo, and responses hand out a freshly signed URL.
 * Refused URLs (private addresses, not http) are a 400 naming `field`.
 */
export async function resolveReferencePhoto(accountId: string, url: string | null | undefined, field: string) {
  if (url == null) return { referencePhotoUrl: null, referencePhotoKey: null };
  await checkSourceUrl(url, field);
  const key = storage().keyFromOwnUrl(url);
  return { referencePhotoUrl: url, referencePhotoKey: key?.startsWith(`uploads/${accountId}/`) ? key : null };
}

export async function referencePhotoUrlFor(row: { referencePhotoUrl: string | null; referencePhotoKey: string | null }) {
  if (row.referencePhotoKey) return storage().signedUrl(row.referencePhotoKey, OUTPUT_URL_TTL_SECONDS);
  return row.referencePhotoUrl;
}
