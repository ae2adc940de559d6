import crypto from "node:crypto";

/**
 * Verifies an S3 SigV4 *presigned GET* URL with the secret it was signed with.
 * Parsing host and expiry alone is not enough for keyFromOwnUrl: anyone can type
 * "X-Amz-Date=...&X-Amz-Signature=0000" onto another tenant's key, and we would then
 * read that object for them straight from the bucket. Synchronous on purpose
 * (keyFromOwnUrl is), hence node:crypto rather than the SDK's async signer.
 */
export type PresignCheck = { ok: true } | { ok: false; reason: "expired" | "bad_signature" | "unknown_key" };

export const MAX_PRESIGN_SECONDS = 7 * 24 * 3600; // S3's own ceiling for SigV4 presigned URLs

export function verifyPresignedGet(
  url: URL,
  secretFor: (accessKeyId: string) => string | undefined,
  nowMs: number = Date.now(),
): PresignCheck {
  const q = url.searchParams;
  const bad = { ok: false, reason: "bad_signature" } as const;
  const credential = (q.get("X-Amz-Credential") ?? "").split("/");
  const amzDate = q.get("X-Amz-Date") ?? "";
  const expiresRaw = q.get("X-Amz-Expires") ?? "";
  const signature = q.get("X-Amz-Signature") ?? "";
  const when = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate);
  // Only URLs shaped like the ones getSignedUrl makes for us: host-only signed headers.
  if (
    q.get("X-Amz-Algorithm") !== "AWS4-HMAC-SHA256" ||
    q.get("X-Amz-SignedHeaders") !== "host" ||
    !/^[0-9a-f]{64}$/.test(signature) ||
    credential.length !== 5 ||
    credential[3] !== "s3" ||
    credential[4] !== "aws4_request" ||
    !when ||
    credential[1] !== amzDate.slice(0, 8) ||
    !/^\d{1,6}$/.test(expiresRaw)
  ) {
    return bad;
  }
  const [accessKeyId, date, region] = credential as [string, string, string, string, string];
  const expires = Number(expiresRaw);
  if (expires < 1 || expires > MAX_PRESIGN_SECONDS) return bad;

  const secret = secretFor(accessKeyId);
  if (secret === undefined) return { ok: false, reason: "unknown_key" };

  const canonicalRequest = [
    "GET",
    canonicalPath(url.pathname),
    canonicalQuery(q),
    `host:${url.host}\n`,
    "host",
    q.get("X-Amz-Content-Sha256") ?? "UNSIGNED-PAYLOAD",
  ].join("\n");
  const scope = `${date}/${region}/s3/aws4_request`;
  const stringToSign = ["AWS4-HMAC-SHA256", amzDate, scope, sha256Hex(canonicalRequest)].join("\n");
  let key: Buffer = hmac(`AWS4${secret}`, date);
  for (const part of [region, "s3", "aws4_request"]) key = hmac(key, part);
  const expected = Buffer.from(hmac(key, stringToSign).toString("hex"));
  if (!crypto.timingSafeEqual(expected, Buffer.from(signature))) return bad;

  const [, y, mo, d, h, mi, s] = when.map(Number) as number[];
  const signedAt = Date.UTC(y!, mo! - 1, d!, h!, mi!, s!);
  if (nowMs >= signedAt + expires * 1000) return { ok: false, reason: "expired" };
  return { ok: true };
}

/** RFC 3986 encoding as SigV4 wants it (encodeURIComponent leaves !'()* alone). */
export function awsEncode(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** S3 signs each path segment encoded once (no double encoding, unlike other services). */
function canonicalPath(pathname: string): string {
  return pathname
    .split("/")
    .map((seg) => awsEncode(safeDecode(seg)))
    .join("/");
}

function canonicalQuery(q: URLSearchParams): string {
  return [...q]
    .filter(([name]) => name !== "X-Amz-Signature")
    .map(([name, value]) => [awsEncode(name), awsEncode(value)] as const)
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join("&");
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s; // an invalid escape cannot match any signature we made
  }
}

function hmac(key: string | Buffer, data: string): Buffer {
  return crypto.createHmac("sha256", key).update(data).digest();
}

function sha256Hex(data: string): string {
  return crypto.createHash("sha256").update(data).digest("hex");
}
