import crypto from "node:crypto";
import { appOrigin } from "@/lib/foundation/http/app-origin";
import { derivedKey } from "@/lib/foundation/secret";

/** Path of the preview file route (app/g/previews/[photoId]/route.ts). */
export const PREVIEW_PATH = "/g/previews/";
/** A preview URL lives this long past the current hour (so a grid reloaded within the hour keeps its cached pictures). */
const PREVIEW_TTL_SECONDS = 6 * 3600;

/**
 * A preview URL is signed for one photo AND one child's code (`c`, the
 * subject id): the file route serves it only while that child's code still
 * opens the photo's gallery, so a URL copied from one child's page is no key to
 * anything else, and stops working when the gallery closes.
 */
function signature(photoId: string, subjectId: string, expires: number): string {
  return crypto.createHmac("sha256", derivedKey("gallery-preview-url")).update(`${photoId}\n${subjectId}\n${expires}`).digest("base64url");
}

export function signPreviewUrl(photoId: string, subjectId: string, origin = appOrigin(), now = Date.now()): string {
  const hour = Math.ceil(now / 3_600_000) * 3600;
  const expires = hour + PREVIEW_TTL_SECONDS;
  const q = new URLSearchParams({ c: subjectId, expires: String(expires), sig: signature(photoId, subjectId, expires) });
  return `${origin}${PREVIEW_PATH}${encodeURIComponent(photoId)}?${q}`;
}

/** The child the URL was signed for, or null (tampered, malformed, expired). */
export function verifyPreviewUrl(photoId: string, params: URLSearchParams, now = Date.now()): { subjectId: string } | null {
  const subjectId = params.get("c") ?? "";
  const expiresRaw = params.get("expires") ?? "";
  const sig = params.get("sig") ?? "";
  if (!subjectId || subjectId.length > 64 || !/^\d{1,12}$/.test(expiresRaw)) return null;
  const expected = Buffer.from(signature(photoId, subjectId, Number(expiresRaw)));
  const given = Buffer.from(sig);
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return null;
  if (now >= Number(expiresRaw) * 1000) return null;
  return { subjectId };
}
