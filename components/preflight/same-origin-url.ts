/**
 * This app's own signed file URLs carry the origin from APP_URL (or the server's
 * guess), which may differ from the address in the browser (localhost against
 * 127.0.0.1, a proxy's name): pdf.js fetches, so they are read from the page's own
 * origin instead. Other URLs (S3 presigned) need CORS on the bucket.
 */
export function sameOriginFileUrl(url: string): string {
  if (typeof window === "undefined") return url;
  const u = new URL(url, window.location.href);
  return u.pathname.startsWith("/files/") && u.searchParams.has("sig") ? `${u.pathname}${u.search}` : url;
}
