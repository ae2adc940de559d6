import { ApiError } from "@/lib/foundation/http/api-error";
import { readCappedBody } from "@/lib/foundation/http/read-capped-body";
import { readMultipart } from "@/lib/foundation/http/read-multipart";

/** 5 MB: a 10,000-row roster with long URLs is well under it. */
export const MAX_CSV_BYTES = 5 * 1024 * 1024;

/** A roster CSV sent as `text/csv` (or text/plain), or as the `file` part of a multipart form. UTF-8. */
export async function readCsvBody(req: Request): Promise<string> {
  const type = req.headers.get("content-type") ?? "";
  if (/^multipart\/form-data/i.test(type)) {
    const file = (await readMultipart(req, MAX_CSV_BYTES + 64 * 1024)).get("file");
    if (!(file instanceof File)) throw new ApiError(400, "VALIDATION_ERROR", "Send the CSV in a multipart part named `file`.", { fields: [{ field: "file", message: "Required." }] });
    return new TextDecoder("utf-8").decode(await file.arrayBuffer());
  }
  if (!/^text\/(csv|plain)\s*(;|$)/i.test(type)) {
    throw new ApiError(415, "UNSUPPORTED_MEDIA_TYPE", "Send the roster as Content-Type: text/csv (or as a multipart `file` part).");
  }
  return new TextDecoder("utf-8").decode(await readCappedBody(req, MAX_CSV_BYTES, tooLarge));
}

function tooLarge() {
  return new ApiError(413, "PAYLOAD_TOO_LARGE", `The CSV is larger than the ${MAX_CSV_BYTES / 1024 / 1024} MB limit.`, { max_bytes: MAX_CSV_BYTES });
}
