import type { Db } from "@/lib/foundation/db/types";
import { config } from "@/lib/foundation/config";
import { ApiError } from "@/lib/foundation/http/api-error";
import { validationError } from "@/lib/foundation/http/validation-error";
import { detectType } from "@/lib/domain/sources/detect-type";
import { faceEngineConfig, isFaceInputError, probeImage } from "@/lib/engines/ml/faces";
import { acceptTask, type IncomingFile } from "./accept-task";
import { MAX_UPLOAD_FILES, SYNC_MAX_FILES, SYNC_MAX_MEGAPIXELS } from "./limits";
import { runSync } from "./run-sync";
import { queuedBody } from "./public-task";
import { faceCropUploadFields } from "./schemas";

const IMAGE_MIMES = new Set(["image/jpeg", "image/png", "image/webp", "image/tiff"]);

/** Checks one uploaded part without decoding its pixels: refused parts are listed, never charged. */
async function screen(file: File): Promise<{ file: IncomingFile; megapixels: number }> {
  const filename = file.name || "photo";
  const refused = (code: string, message: string) => ({ file: { kind: "refused" as const, filename, code, message }, megapixels: 0 });
  if (file.size === 0) return refused("EMPTY_FILE", "The file is empty.");
  if (file.size > config().MAX_IMAGE_BYTES) return refused("FILE_TOO_LARGE", `The file is larger than the ${Math.round(config().MAX_IMAGE_BYTES / 1024 / 1024)} MB limit.`);
  const bytes = Buffer.from(await file.arrayBuffer());
  const type = await detectType(bytes);
  if (!type || !IMAGE_MIMES.has(type.mime)) {
    return refused("UNSUPPORTED_FILE_TYPE", `The file must be a JPEG, PNG, WebP or TIFF photo; its content is ${type ? type.mime : "not a recognised image"}, whatever its name.`);
  }
  try {
    const { width, height } = await probeImage(bytes, faceEngineConfig().maxPixels);
    return { file: { kind: "bytes", filename, bytes, mime: type.mime }, megapixels: (width * height) / 1e6 };
  } catch (err) {
    if (isFaceInputError(err)) return refused(err.code, err.message);
    throw err;
  }
}

/**
 * POST /v1/services/studio/face-crop/upload: `file[]` parts, `icp_type`, `enhance`.
 * Parts that are not usable photos are listed with their reason and not charged.
 * A small batch is cropped at once (200, like the URL form); a larger one becomes
 * a task (202) that GET /v1/services/studio/jobs/{taskId} follows.
 */
export async function cropUploads(db: Db, accountId: string, form: FormData): Promise<{ status: 200 | 202; body: unknown }> {
  const fields: Record<string, string> = {};
  const files: File[] = [];
  for (const [name, value] of form.entries()) {
    if (name === "file[]") {
      if (typeof value === "string") throw new ApiError(400, "VALIDATION_ERROR", "Each file[] part must be a file.", { in: "body", fields: [{ field: "file[]", message: "Not a file." }] });
      files.push(value);
    } else if (typeof value !== "string") {
      throw new ApiError(400, "VALIDATION_ERROR", `Send the photos in parts named file[] (got a file in "${name}").`, { in: "body", fields: [{ field: name, message: "Unknown field: photos go in file[] parts." }] });
    } else if (name in fields) {
      throw new ApiError(400, "VALIDATION_ERROR", `${name} was given more than once.`, { in: "body", fields: [{ field: name, message: "Repeated field." }] });
    } else fields[name] = value;
  }
  const parsed = faceCropUploadFields.safeParse(fields);
  if (!parsed.success) throw validationError(parsed.error, "body");
  if (files.length === 0) throw new ApiError(400, "VALIDATION_ERROR", "Send at least one photo in a part named file[].", { in: "body", fields: [{ field: "file[]", message: "Required." }] });
  if (files.length > MAX_UPLOAD_FILES) {
    throw new ApiError(400, "TOO_MANY_FILES", `At most ${MAX_UPLOAD_FILES} photos per upload (got ${files.length}); send the rest in another request.`, { in: "body", fields: [{ field: "file[]", message: `At most ${MAX_UPLOAD_FILES} files.` }], max_files: MAX_UPLOAD_FILES });
  }
  const screened = [];
  for (const f of files) screened.push(await screen(f));
  const usable = screened.filter((s) => s.file.kind !== "refused");
  if (usable.length === 0) {
    throw new ApiError(400, "NO_USABLE_FILES", "None of the files is a photo that can be cropped; nothing was charged.", {
      in: "body",
      files: screened.map((s) => ({ filename: s.file.filename, error: s.file.kind === "refused" ? { code: s.file.code, message: s.file.message } : null })),
    });
  }
  const megapixels = usable.reduce((sum, s) => sum + s.megapixels, 0);
  // Enhance may run super-resolution (seconds a crop): always a task.
  const mode = !parsed.data.enhance && usable.length <= SYNC_MAX_FILES && megapixels <= SYNC_MAX_MEGAPIXELS ? "sync" : "async";
  const task = await acceptTask(db, accountId, { icpType: parsed.data.icp_type, enhance: parsed.data.enhance, mode, files: screened.map((s) => s.file) });
  if (mode === "sync") return { status: 200, body: await runSync(db, task) };
  return { status: 202, body: queuedBody(task) };
}
