import { and, eq, inArray, isNotNull } from "drizzle-orm";
import type { Db } from "@/lib/db/types";
import { galleries, galleryPhotos } from "@/lib/db/schema";

/**
 * The stored previews of a job's galleries: a deleted job takes its galleries
 * with it (rows cascade), and its caller deletes these files after the rows go.
 * Kept apart from the rest of the galleries service so the studio's job
 * deletion can use it without an import cycle.
 */
export async function jobPreviewKeys(db: Db, accountId: string, jobId: number): Promise<string[]> {
  const rows = await db
    .selectDistinct({ key: galleryPhotos.previewKey })
    .from(galleryPhotos)
    .where(and(inArray(galleryPhotos.galleryId, db.select({ id: galleries.id }).from(galleries).where(and(eq(galleries.accountId, accountId), eq(galleries.jobId, jobId)))), isNotNull(galleryPhotos.previewKey)));
  return rows.map((r) => r.key!);
}
