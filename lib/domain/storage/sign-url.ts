import crypto from "node:crypto";
import { appOrigin } from "@/lib/foundation/http/app-origin";
import { derivedKey } from "@/lib/foundation/secret";
import { isValidKey, normaliseTtl } from "./types";

/** URLs served by app/files/[...key]/route.ts for the local driver. */
export const FILES_PATH_PREFIX = "/files/";

export type SignedFileCheck =
  | { ok: true; key: string; expires: number; downloadName?: string }
  | { ok: false; reason: "expired" | "bad_signature" };

/**
 * HMAC over "key\nexpires" (+ "\nname" when a download name is set). Keys and the
 * decimal expiry cannot contain "\n", so the name being last keeps the message unambiguous.
 */
function signature(key: string, expires: number, downloadName?: string): string {
  const message = downloadName === undefined ? `${key}\n${expires}` : `${key}\n${expires}\n${downloadName}`;
  return crypto.createHmac("sha256", derivedKey("file-url")).update(message).digest("base64url");
}

/** `${appOrigin()}/files/<key>?expires=..&sig=..[&name=..]`, valid for ttlSeconds from now. */
export function signFileUrl(key: string, ttlSeconds: number, downloadName?: string): string {
  const expires = Math.floor(Date.now() / 1000) + normaliseTtl(ttlSeconds);
  return signFileUrlUntil(key, expires, downloadName);
}

/** Same, with an explicit expiry (unix seconds); also how tests make already-expired URLs. */
export function signFileUrlUntil(key: string, expires: number, downloadName?: string): string {
  if (!isValidKey(key)) throw new Error(`Invalid storage key: ${JSON.stringify(key)}`);
  const name = downloadName || undefined; // an empty name means "no name", never `filename=""`
  const query = new URLSearchParams({ expires: String(expires), sig: signature(key, expires, name) });
  if (name !== undefined) query.set("name", name);
  return `${appOrigin()}${FILES_PATH_PREFIX}${key}?${query}`;
}

/** Checks the signature first, so a tampered expiry reports bad_signature, not expired. */
export function verifyFileSignature(
  key: string,
  params: URLSearchParams,
  nowMs: number = Date.now(),
): SignedFileCheck {
  const expiresRaw = params.get("expires") ?? "";
  const sig = params.get("sig") ?? "";
  const name = params.get("name") ?? undefined;
  if (!isValidKey(key) || !/^\d{1,12}$/.test(expiresRaw)) return { ok: false, reason: "bad_signature" };
  const expires = Number(expiresRaw);
  // Compare the base64url text itself: decoding first would accept several spellings of one signature.
  const expected = Buffer.from(signature(key, expires, name));
  const given = Buffer.from(sig);
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) {
    return { ok: false, reason: "bad_signature" };
  }
  if (nowMs >= expires * 1000) return { ok: false, reason: "expired" };
  return { ok: true, key, expires, ...(name !== undefined && { downloadName: name }) };
}

/**
 * Key of a signed /files/ URL of ours, or null (not a /files/ URL, malformed,
 * tampered, expired). The signature decides, not the host: links are signed on
 * whichever origin the client called, and a valid signature can only come from us,
 * so whatever host such a URL names, the bytes it stands for are in our storage.
 */
export function verifyFileUrl(url: string): SignedFileCheck | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (!/^https?:$/.test(parsed.protocol) || !parsed.pathname.startsWith(FILES_PATH_PREFIX)) return null;
  let key: string;
  try {
    key = decodeURIComponent(parsed.pathname.slice(FILES_PATH_PREFIX.length));
  } catch {
    return null;
  }
  return verifyFileSignature(key, parsed.searchParams);
}
