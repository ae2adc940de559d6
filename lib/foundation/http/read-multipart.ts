import { ApiError } from "./api-error";

/**
 * Parses a multipart/form-data body with a byte cap enforced while streaming,
 * so an oversized upload is cut off instead of buffered whole.
 */
export async function readMultipart(req: Request, maxBytes: number): Promise<FormData> {
  const type = req.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(type)) {
    throw new ApiError(415, "UNSUPPORTED_MEDIA_TYPE", "Send the file as multipart/form-data with a part named `file`.");
  }
  const tooLarge = () => new ApiError(413, "PAYLOAD_TOO_LARGE", `The upload is larger than the ${Math.round(maxBytes / 1024 / 1024)} MB limit.`, { field: "file", max_bytes: maxBytes });
  if (Number(req.headers.get("content-length") ?? "0") > maxBytes) throw tooLarge();
  if (!req.body) throw new ApiError(400, "VALIDATION_ERROR", "The body is empty: send a part named `file`.", { fields: [{ field: "file", message: "Required." }] });

  let seen = 0;
  let exceeded = false;
  const limited = req.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > maxBytes) {
          exceeded = true;
          controller.error(new Error("body too large"));
        } else controller.enqueue(chunk);
      },
    }),
  );
  try {
    return await new Request(req.url, { method: "POST", headers: { "content-type": type }, body: limited, duplex: "half" } as RequestInit).formData();
  } catch {
    if (exceeded) throw tooLarge();
    throw new ApiError(400, "INVALID_MULTIPART", "The multipart body could not be parsed.");
  }
}
