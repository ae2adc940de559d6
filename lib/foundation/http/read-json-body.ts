import { ApiError } from "./api-error";
import { readCappedBody } from "./read-capped-body";

/** Reads a JSON body under a byte cap (see readCappedBody). Empty body -> undefined. */
export async function readJsonBody(req: Request, maxBytes: number): Promise<unknown> {
  const bytes = await readCappedBody(req, maxBytes, () => tooLarge(maxBytes));
  if (bytes.length === 0) return undefined;
  const type = req.headers.get("content-type");
  if (!type || !/^application\/(.+\+)?json\s*(;|$)/i.test(type)) {
    throw new ApiError(415, "UNSUPPORTED_MEDIA_TYPE", "Send the body as JSON with Content-Type: application/json.");
  }
  try {
    return JSON.parse(bytes.toString("utf8"));
  } catch (err) {
    throw new ApiError(400, "INVALID_JSON", `The body is not valid JSON: ${(err as Error).message}`);
  }
}

function tooLarge(maxBytes: number): ApiError {
  return new ApiError(413, "PAYLOAD_TOO_LARGE", `The body is larger than the ${maxBytes}-byte limit.`, { max_bytes: maxBytes });
}
