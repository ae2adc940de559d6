/**
 * Where sign-in returns to. Client-safe (no server imports): the sign-in page, the
 * studio layout's redirect and proxy.ts read it.
 */

/** The request header proxy.ts sets on a studio page: the path asked for, so the layout's redirect to sign-in can carry it. */
export const REQUESTED_PATH_HEADER = "x-requested-path";

const ORIGIN = "http://return-path.invalid";

/**
 * A same-site path (`/team?tab=x`), or undefined for anything that could leave the
 * site: an absolute URL, a protocol-relative `//host`, a backslash (browsers read
 * `/\host` as `//host`), control characters (a tab inside `/\t/host` is dropped,
 * leaving `//host`), or anything over 2,000 characters.
 */
export function safeReturnPath(value: string | null | undefined): string | undefined {
  if (typeof value !== "string" || value.length === 0 || value.length > 2000) return undefined;
  if (!value.startsWith("/") || value.startsWith("//") || value.includes("\\")) return undefined;
  if (/[\u0000-\u001f\u007f]/.test(value)) return undefined;
  let url: URL;
  try {
    url = new URL(value, ORIGIN);
  } catch {
    return undefined;
  }
  if (url.origin !== ORIGIN) return undefined;
  const path = url.pathname + url.search + url.hash;
  // Back to the sign-in page itself would only ask again.
  if (url.pathname === "/signin") return undefined;
  return path;
}

/** The sign-in page's address that returns to `path` once signed in (plain /signin when there is nothing safe to return to). */
export function signInPathFor(path: string | null | undefined): string {
  const back = safeReturnPath(path);
  return back && back !== "/dashboard" ? `/signin?callbackUrl=${encodeURIComponent(back)}` : "/signin";
}
