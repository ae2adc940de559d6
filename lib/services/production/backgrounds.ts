import { and, count, desc, eq } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { studioBackgrounds } from "@/lib/foundation/db/schema";
import { ApiError, notFound } from "@/lib/foundation/http/api-error";
import { newId } from "@/lib/foundation/ids";
import { OUTPUT_URL_TTL_SECONDS, storage } from "@/lib/domain/storage";
import { ACCEPTED_TYPES } from "@/lib/domain/sources/detect-type";
import { inspectPhoto } from "@/lib/services/agencies/job-files";
import { deleteStoredFiles } from "@/lib/services/agencies/stored-files";
import { backgroundName } from "./schemas";
import { MAX_BACKGROUNDS } from "./values";

type BackgroundRow = typeof studioBackgrounds.$inferSelect;

export async function presentBackground(row: BackgroundRow) {
  const [url, thumbnailUrl] = row.storageKey
    ? await Promise.all([storage().signedUrl(row.storageKey, OUTPUT_URL_TTL_SECONDS), storage().signedUrl(row.thumbnailKey!, OUTPUT_URL_TTL_SECONDS)])
    : [null, null];
  return { id: row.id, name: row.name, kind: row.kind, color: row.color, width: row.width, height: row.height, url, thumbnail_url: thumbnailUrl, created_at: row.createdAt.toISOString() };
}

export async function listBackgrounds(db: Db, accountId: string, page: { limit: number; offset: number }) {
  const where = eq(studioBackgrounds.accountId, accountId);
  const [rows, [total]] = await Promise.all([
    db.select().from(studioBackgrounds).where(where).orderBy(desc(studioBackgrounds.createdAt), desc(studioBackgrounds.id)).limit(page.limit).offset(page.offset),
    db.select({ n: count() }).from(studioBackgrounds).where(where),
  ]);
  return { items: await Promise.all(rows.map(presentBackground)), total: total?.n ?? 0 };
}

async function requireRoom(db: Db, accountId: string) {
  const [row] = await db.select({ n: count() }).from(studioBackgrounds).where(eq(studioBackgrounds.accountId, accountId));
  if ((row?.n ?? 0) >= MAX_BACKGROUNDS) throw new ApiError(409, "TOO_MANY_BACKGROUNDS", `A studio keeps at most ${MAX_BACKGROUNDS} backgrounds: delete one first.`);
}

export async function createColorBackground(db: Db, accountId: string, body: { name: string; color: string }) {
  await requireRoom(db, accountId);
  const [row] = await db.insert(studioBackgrounds).values({ id: newId("bkg"), accountId, name: body.name, kind: "color", color: body.color }).returning();
  return presentBackground(row!);
}

/** A picture background from a multipart body: a `file` part (JPEG, PNG, WebP or TIFF) and a `name` field. */
export async function createImageBackground(db: Db, accountId: string, form: FormData) {
  const name = backgroundName.safeParse(form.get("name") ?? undefined);
  if (!name.success) throw new ApiError(400, "VALIDATION_ERROR", `name: ${name.error.issues[0]!.message}`, { fields: [{ field: "name", message: name.error.issues[0]!.message }] });
  const part = form.get("file");
  if (!(part instanceof File)) throw new ApiError(400, "VALIDATION_ERROR", "Send the picture in a multipart part named `file`.", { fields: [{ field: "file", message: "Required." }] });
  await requireRoom(db, accountId);
  const bytes = Buffer.from(await part.arrayBuffer());
  const photo = await inspectPhoto({ bytes, filename: part.name || "background", sourceUrl: null, field: "file" });
  const id = newId("bkg");
  const stem = `studio/${accountId}/backgrounds/${id}`;
  const storageKey = `${stem}.${ACCEPTED_TYPES[photo.mime].ext}`;
  const thumbnailKey = `${stem}.thumb.jpg`;
  await storage().put(storageKey, bytes, photo.mime);
  await storage().put(thumbnailKey, photo.thumbnail, "image/jpeg");
  try {
    const [row] = await db
      .insert(studioBackgrounds)
      .values({ id, accountId, name: name.data, kind: "image", storageKey, thumbnailKey, contentType: photo.mime, width: photo.width, height: photo.height })
      .returning();
    return presentBackground(row!);
  } catch (err) {
    await deleteStoredFiles([{ storageKey, thumbnailKey }]);
    throw err;
  }
}

/**
 * Deletes a background and its stored picture. Orders that chose it keep its id:
 * their prints are held for the studio (another background, or none) when rendered.
 */
export async function deleteBackground(db: Db, accountId: string, id: string) {
  const [row] = await db.delete(studioBackgrounds).where(and(eq(studioBackgrounds.id, id), eq(studioBackgrounds.accountId, accountId))).returning();
  if (!row) throw notFound("Background");
  if (row.storageKey) await deleteStoredFiles([{ storageKey: row.storageKey, thumbnailKey: row.thumbnailKey! }]);
  return { deleted: true as const };
}
