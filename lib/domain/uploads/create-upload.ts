import type { Db } from "@/lib/foundation/db/types";
import { uploads } from "@/lib/foundation/db/schema";
import { config } from "@/lib/foundation/config";
import { ApiError } from "@/lib/foundation/http/api-error";
import { newId } from "@/lib/foundation/ids";
import { OUTPUT_URL_TTL_SECONDS, storage } from "@/lib/domain/storage";
import { ACCEPTED_TYPES, detectType, isAccepted } from "@/lib/domain/sources/detect-type";

/** Size cap by what the bytes are: images and PDFs have separate limits. */
function maxBytesFor(kind: "image" | "pdf"): number {
  return kind === "pdf" ? config().MAX_PDF_BYTES : config().MAX_IMAGE_BYTES;
}

/** The largest body the upload endpoint reads at all (the bigger of the two caps plus form overhead). */
export function uploadBodyLimit(): number {
  return Math.max(config().MAX_IMAGE_BYTES, config().MAX_PDF_BYTES) + 64 * 1024;
}

/**
 * Stores an uploaded file and returns a signed URL that every endpoint accepts
 * as image_url / fileUrl. The type is decided by magic bytes; a file that is not
 * a JPEG, PNG, WebP, TIFF or PDF is refused whatever its name or declared type.
 */
export async function createUpload(db: Db, accountId: string, form: FormData) {
  const file = form.get("file");
  if (!(file instanceof File)) {
    throw new ApiError(400, "VALIDATION_ERROR", "Send the file in a multipart part named `file`.", { fields: [{ field: "file", message: "Required." }] });
  }
  const bytes = Buffer.from(await file.arrayBuffer());
  if (bytes.byteLength === 0) throw new ApiError(400, "EMPTY_FILE", "The file is empty.", { field: "file" });
  const detected = await detectType(bytes);
  if (!isAccepted(detected?.mime)) {
    const what = detected ? `its content is ${detected.mime}` : "its content is not a recognised file type";
    throw new ApiError(415, "UNSUPPORTED_FILE_TYPE", `The file must be a JPEG, PNG, WebP, TIFF or PDF; ${what}${file.type ? ` (declared as ${file.type})` : ""}.`, { field: "file", detected: detected?.mime ?? null, declared: file.type || null });
  }
  const { kind, ext } = ACCEPTED_TYPES[detected.mime];
  const max = maxBytesFor(kind);
  if (bytes.byteLength > max) {
    throw new ApiError(413, "PAYLOAD_TOO_LARGE", `The ${kind === "pdf" ? "PDF" : "image"} is larger than the ${Math.round(max / 1024 / 1024)} MB limit.`, { field: "file", max_bytes: max });
  }

  const id = newId("upl");
  const key = `uploads/${accountId}/${id}.${ext}`;
  await storage().put(key, bytes, detected.mime);
  await db.insert(uploads).values({ id, accountId, storageKey: key, contentType: detected.mime, size: bytes.byteLength, originalName: file.name?.slice(0, 255) || null });
  const url = await storage().signedUrl(key, OUTPUT_URL_TTL_SECONDS);
  return {
    id,
    url,
    expires_at: new Date(Date.now() + OUTPUT_URL_TTL_SECONDS * 1000).toISOString(),
    content_type: detected.mime,
    size: bytes.byteLength,
  };
}
