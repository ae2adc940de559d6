import crypto from "node:crypto";
import { and, asc, count, desc, eq } from "drizzle-orm";
import sharp from "sharp";
import type { Db } from "@/lib/foundation/db/types";
import { jobFiles } from "@/lib/foundation/db/schema";
import { config } from "@/lib/foundation/config";
import { ApiError, notFound } from "@/lib/foundation/http/api-error";
import { newId } from "@/lib/foundation/ids";
import { OUTPUT_URL_TTL_SECONDS, storage } from "@/lib/domain/storage";
import { ACCEPTED_TYPES, detectType } from "@/lib/domain/sources/detect-type";
import { checkSourceUrl, fetchSource } from "@/lib/domain/sources/fetch-source";
import { FetchFailedError, UrlNotAllowedError, toApiError } from "@/lib/domain/net";
import { requireJob } from "./agency-jobs";
import { deleteStoredFiles } from "./stored-files";
import { DECODE_FAIL_ON } from "@/lib/engines/imaging/image-input";

type FileRow = typeof jobFiles.$inferSelect;

/** Job photos are images (face matching reads them); PDFs are not accepted here. */
const PHOTO_TYPES = ["image/jpeg", "image/png", "image/webp", "image/tiff"] as const;
/** Longest edge of the thumbnails the studio pages show. */
const THUMBNAIL_EDGE = 320;
/** Files per multipart request. */
export const MAX_FILES_PER_REQUEST = 20;

type StoredPhotoRow = Pick<FileRow, "filename" | "contentType" | "size" | "width" | "height" | "storageKey" | "thumbnailKey">;

/** What the API shows of a photo stored with its thumbnail (a job's photo, a subject's portrait): its facts and signed URLs. */
export async function storedPhotoFields(row: StoredPhotoRow) {
  const [url, thumbnailUrl] = await Promise.all([
    storage().signedUrl(row.storageKey, OUTPUT_URL_TTL_SECONDS),
    storage().signedUrl(row.thumbnailKey, OUTPUT_URL_TTL_SECONDS),
  ]);
  return { filename: row.filename, content_type: row.contentType, size: row.size, width: row.width, height: row.height, url, thumbnail_url: thumbnailUrl };
}

export async function toPublicFile(row: FileRow) {
  return { id: row.id, job_id: row.jobId, ...(await storedPhotoFields(row)), source_url: row.sourceUrl, created_at: row.createdAt.toISOString() };
}

export async function listFiles(db: Db, accountId: string, agencyId: number, jobId: number, page: { limit: number; offset: number }) {
  await requireJob(db, accountId, agencyId, jobId);
  const where = and(eq(jobFiles.jobId, jobId), eq(jobFiles.accountId, accountId));
  const [rows, [total]] = await Promise.all([
    db.select().from(jobFiles).where(where).orderBy(desc(jobFiles.id)).limit(page.limit).offset(page.offset),
    db.select({ n: count() }).from(jobFiles).where(where),
  ]);
  return { items: await Promise.all(rows.map(toPublicFile)), total: total?.n ?? 0 };
}

export type Incoming = { bytes: Buffer; filename: string; sourceUrl: string | null; field: string };

/**
 * Checks that the bytes are a photo (by content, then by actually decoding
 * them), and measures it: width and height as displayed, after EXIF rotation,
 * since that is how face detection will see it.
 */
export async function inspectPhoto(file: Incoming) {
  if (file.bytes.byteLength === 0) throw new ApiError(400, "EMPTY_FILE", `${file.filename} is empty.`, { field: file.field });
  const max = config().MAX_IMAGE_BYTES;
  if (file.bytes.byteLength > max) throw new ApiError(413, "PAYLOAD_TOO_LARGE", `${file.filename} is larger than the ${Math.round(max / 1024 / 1024)} MB limit.`, { field: file.field, max_bytes: max });
  const detected = await detectType(file.bytes);
  const mime = detected?.mime;
  if (!mime || !(PHOTO_TYPES as readonly string[]).includes(mime)) {
    throw new ApiError(415, "UNSUPPORTED_FILE_TYPE", `${file.filename} must be a JPEG, PNG, WebP or TIFF photo; its content is ${mime ?? "not a recognised image"}.`, { field: file.field, detected: mime ?? null });
  }
  try {
    const image = sharp(file.bytes, { failOn: DECODE_FAIL_ON });
    const meta = await image.metadata();
    const thumbnail = await image.rotate().resize(THUMBNAIL_EDGE, THUMBNAIL_EDGE, { fit: "inside", withoutEnlargement: true }).jpeg({ quality: 78 }).toBuffer();
    const width = meta.autoOrient?.width ?? meta.width;
    const height = meta.autoOrient?.height ?? meta.height;
    if (!width || !height) throw new Error("no dimensions");
    return { mime: mime as (typeof PHOTO_TYPES)[number], width, height, thumbnail };
  } catch {
    throw new ApiError(422, "UNREADABLE_IMAGE", `${file.filename} looks like ${mime} but cannot be decoded: the file is damaged or truncated.`, { field: file.field });
  }
}

/** The file already in this job with the very same bytes, if any. */
async function findSameBytes(db: Db, accountId: string, jobId: number, sha256: string) {
  const [row] = await db
    .select({ id: jobFiles.id, filename: jobFiles.filename })
    .from(jobFiles)
    .where(and(eq(jobFiles.jobId, jobId), eq(jobFiles.accountId, accountId), eq(jobFiles.sha256, sha256)))
    .orderBy(asc(jobFiles.id))
    .limit(1);
  return row ?? null;
}

/**
 * Stores one photo. The same bytes already in the job are not refused (a
 * photographer may mean it) but reported: `duplicate_of` on the file, and a
 * warning in words on the answer.
 */
export async function storeFile(db: Db, accountId: string, jobId: number, file: Incoming) {
  const photo = await inspectPhoto(file);
  const sha256 = crypto.createHash("sha256").update(file.bytes).digest("hex");
  const duplicateOf = await findSameBytes(db, accountId, jobId, sha256);
  const stem = `studio/${accountId}/jobs/${jobId}/${newId("f")}`;
  const storageKey = `${stem}.${ACCEPTED_TYPES[photo.mime].ext}`;
  const thumbnailKey = `${stem}.thumb.jpg`;
  await storage().put(storageKey, file.bytes, photo.mime);
  await storage().put(thumbnailKey, photo.thumbnail, "image/jpeg");
  const [row] = await db
    .insert(jobFiles)
    .values({ accountId, jobId, filename: file.filename, storageKey, thumbnailKey, contentType: photo.mime, size: file.bytes.byteLength, width: photo.width, height: photo.height, sourceUrl: file.sourceUrl, sha256 })
    .returning();
  return { row: row!, duplicateOf };
}

type Stored = Awaited<ReturnType<typeof storeFile>>;

/** The upload answer: the files (each with `duplicate_of`) and a warning per duplicate, in words. */
async function uploadAnswer(stored: Stored[]) {
  const files = await Promise.all(stored.map(async (s) => ({ ...(await toPublicFile(s.row)), sha256: s.row.sha256, duplicate_of: s.duplicateOf })));
  const warnings = stored
    .filter((s) => s.duplicateOf)
    .map((s) => ({
      code: "DUPLICATE_FILE",
      file_id: s.row.id,
      duplicate_of: s.duplicateOf!.id,
      message: `${s.row.filename} has exactly the same bytes as ${s.duplicateOf!.filename} (file ${s.duplicateOf!.id}), already in this job. It was added; delete one if it was not meant twice.`,
    }));
  return { files, warnings };
}

/** Multipart upload: one or more `file` parts. Every file is checked before any is stored. */
export async function addFilesFromForm(db: Db, accountId: string, agencyId: number, jobId: number, form: FormData) {
  await requireJob(db, accountId, agencyId, jobId);
  const parts = form.getAll("file").filter((p): p is File => p instanceof File);
  if (parts.length === 0) throw new ApiError(400, "VALIDATION_ERROR", "Send the photos in multipart parts named `file`, or JSON { url }.", { fields: [{ field: "file", message: "Required." }] });
  if (parts.length > MAX_FILES_PER_REQUEST) throw new ApiError(400, "VALIDATION_ERROR", `At most ${MAX_FILES_PER_REQUEST} files per request.`, { fields: [{ field: "file", message: `At most ${MAX_FILES_PER_REQUEST} files.` }] });
  const incoming = await Promise.all(
    parts.map(async (p, i) => ({ bytes: Buffer.from(await p.arrayBuffer()), filename: cleanName(p.name) || `photo-${i + 1}`, sourceUrl: null, field: parts.length > 1 ? `file[${i}]` : "file" })),
  );
  for (const file of incoming) await inspectPhoto(file);
  const stored: Stored[] = [];
  for (const file of incoming) stored.push(await storeFile(db, accountId, jobId, file));
  return uploadAnswer(stored);
}

/** By URL: checked at request time like every caller URL, then fetched through the safe fetcher. */
export async function addFileFromUrl(db: Db, accountId: string, agencyId: number, jobId: number, input: { url: string; filename?: string }) {
  await requireJob(db, accountId, agencyId, jobId);
  await checkSourceUrl(input.url, "url");
  let bytes: Buffer;
  try {
    bytes = (await fetchSource(input.url, { maxBytes: config().MAX_IMAGE_BYTES })).bytes;
  } catch (err) {
    if (err instanceof FetchFailedError || err instanceof UrlNotAllowedError) throw toApiError(err, "url");
    throw err;
  }
  const filename = input.filename ?? (cleanName(safeDecode(new URL(input.url).pathname.split("/").pop() ?? "")) || "photo");
  const stored = await storeFile(db, accountId, jobId, { bytes, filename, sourceUrl: input.url, field: "url" });
  return uploadAnswer([stored]);
}

async function requireFile(db: Db, accountId: string, agencyId: number, jobId: number, fileId: number) {
  await requireJob(db, accountId, agencyId, jobId);
  const [row] = await db.select().from(jobFiles).where(and(eq(jobFiles.id, fileId), eq(jobFiles.jobId, jobId), eq(jobFiles.accountId, accountId)));
  if (!row) throw notFound("File");
  return row;
}

export async function getFile(db: Db, accountId: string, agencyId: number, jobId: number, fileId: number) {
  return toPublicFile(await requireFile(db, accountId, agencyId, jobId, fileId));
}

export async function deleteFile(db: Db, accountId: string, agencyId: number, jobId: number, fileId: number) {
  const row = await requireFile(db, accountId, agencyId, jobId, fileId);
  await db.delete(jobFiles).where(eq(jobFiles.id, row.id));
  await deleteStoredFiles([row]);
}

/** A display name: the last path segment, without control characters, at most 255 characters. */
export function cleanName(name: string): string {
  return (name.split(/[\\/]/).pop() ?? "").replace(/[\p{Cc}]/gu, "").trim().slice(0, 255);
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
