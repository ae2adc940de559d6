import { and, eq, inArray, isNotNull } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { galleries, galleryPhotos } from "@/lib/foundation/db/schema";

/**
 * The stored previews of a job's galleries: a deleted job takes its galleries
 * with it (rows cascade), and its caller deletes these files after the rows go.
 * Here, not in galleries: agencies sit below galleries, and this is only a query
 * over the gallery tables.
 */
export async function jobPreviewKeys(db: Db, accountId: string, jobId: number): Promise<string[]> {
  const rows = await db
    .selectDistinct({ key: galleryPhotos.previewKey })
    .from(galleryPhotos)
    .where(and(inArray(galleryPhotos.galleryId, db.select({ id: galleries.id }).from(galleries).where(and(eq(galleries.accountId, accountId), eq(galleries.jobId, jobId)))), isNotNull(galleryPhotos.previewKey)));
  return rows.map((r) => r.key!);
}
