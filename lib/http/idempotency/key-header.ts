import { ApiError } from "@/lib/foundation/http/api-error";

export const IDEMPOTENCY_HEADER = "Idempotency-Key";
export const REPLAYED_HEADER = "Idempotent-Replayed";

/** 1 to 255 printable ASCII characters (space to tilde). */
const VALID = /^[\x20-\x7e]{1,255}$/;

/** The request's Idempotency-Key, undefined when absent; a 400 naming the header when malformed. */
export function idempotencyKeyOf(req: Request): string | undefined {
  const raw = req.headers.get(IDEMPOTENCY_HEADER);
  if (raw === null) return undefined;
  const key = raw.trim();
  if (!VALID.test(key)) {
    const message = key.length === 0 ? "is empty" : key.length > 255 ? `is ${key.length} characters long` : "contains characters that are not printable ASCII";
    throw new ApiError(400, "INVALID_IDEMPOTENCY_KEY", `The Idempotency-Key header ${message}: send 1 to 255 printable ASCII characters (a UUID is a good choice).`, {
      in: "header",
      fields: [{ field: IDEMPOTENCY_HEADER, message: "Must be 1 to 255 printable ASCII characters." }],
    });
  }
  return key;
}
