import { ApiError } from "./api-error";

/**
 * Reads a JSON body with a byte cap enforced while streaming (a lying or missing
 * Content-Length cannot get past it). Empty body -> undefined.
 */
export async function readJsonBody(req: Request, maxBytes: number): Promise<unknown> {
  const type = req.headers.get("content-type");
  const declared = Number(req.headers.get("content-length") ?? "");
  if (declared > maxBytes) throw tooLarge(maxBytes);
  if (!req.body) return undefined;

  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = req.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  if (total === 0) return undefined;
  if (!type || !/^application\/(.+\+)?json\s*(;|$)/i.test(type)) {
    throw new ApiError(415, "UNSUPPORTED_MEDIA_TYPE", "Send the body as JSON with Content-Type: application/json.");
  }
  const text = Buffer.concat(chunks).toString("utf8");
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ApiError(400, "INVALID_JSON", `The body is not valid JSON: ${(err as Error).message}`);
  }
}

function tooLarge(maxBytes: number): ApiError {
  return new ApiError(413, "PAYLOAD_TOO_LARGE", `The body is larger than the ${maxBytes}-byte limit.`, { max_bytes: maxBytes });
}
