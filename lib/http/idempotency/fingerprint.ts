import crypto from "node:crypto";

/**
 * What makes two requests "the same" for an Idempotency-Key: method, path with
 * query string, and the body's bytes. A multipart body's boundary is random per
 * send (a browser picks a new one on every retry), so it is replaced by a fixed
 * marker before hashing: the parts' bytes are what count.
 */
export function requestFingerprint(method: string, url: string, contentType: string | null, body: Buffer): string {
  const u = new URL(url);
  const boundary = contentType?.match(/^multipart\/[^;]+;.*\bboundary="?([^";]+)"?/i)?.[1];
  const hash = crypto.createHash("sha256");
  hash.update(`${method.toUpperCase()} ${u.pathname}${u.search}\n`);
  if (boundary) {
    const marker = Buffer.from(`--${boundary}`);
    let from = 0;
    for (let at = body.indexOf(marker, from); at !== -1; at = body.indexOf(marker, from)) {
      hash.update(body.subarray(from, at));
      hash.update("--BOUNDARY");
      from = at + marker.length;
    }
    hash.update(body.subarray(from));
  } else {
    hash.update(body);
  }
  return hash.digest("hex");
}
