import { and, asc, eq, isNotNull, isNull, or, sql } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { galleries, galleryPhotos, photoFaces } from "@/lib/foundation/db/schema";
import { isOpen } from "@/lib/services/galleries/open-galleries";
import { photoFace } from "./photo-face";
import { sheetForJob } from "./price-sheets";

/** How many photos one step of inngest/gallery-faces.ts finds faces on (a step is the unit a restart repeats). */
export const FACES_PER_STEP = 4;

/**
 * The job files of a gallery with a preview (what parents can see) and no face found yet, in
 * the gallery's order, then those of the job's open group gallery (its class photo is sold
 * too; found once for every child); none when the job's price sheet sells no print (a
 * face-started crop is for prints only).
 */
export async function galleryFilesWithoutFace(db: Db, accountId: string, jobId: number, galleryId: string): Promise<number[]> {
  const sheet = await sheetForJob(db, accountId, jobId);
  if (!sheet?.items.some((i) => i.kind === "print")) return [];
  const groupGallery = and(eq(galleries.jobId, jobId), eq(galleries.kind, "group"), isOpen());
  const rows = await db
    .select({ jobFileId: galleryPhotos.jobFileId })
    .from(galleryPhotos)
    .innerJoin(galleries, eq(galleries.id, galleryPhotos.galleryId))
    .leftJoin(photoFaces, eq(photoFaces.jobFileId, galleryPhotos.jobFileId))
    .where(and(or(eq(galleryPhotos.galleryId, galleryId), groupGallery), eq(galleryPhotos.accountId, accountId), isNotNull(galleryPhotos.previewKey), isNull(photoFaces.jobFileId)))
    .orderBy(sql`${galleries.kind} = 'group'`, asc(galleryPhotos.position), asc(galleryPhotos.id));
  // A group photo also in the child's gallery is looked at once.
  return [...new Set(rows.map((r) => r.jobFileId))];
}

/**
 * Finds and keeps the face of each file (photo-face.ts: once per file, shared
 * with a parent's request for the same file). Returns how many have one now.
 */
export async function findGalleryFaces(db: Db, accountId: string, jobFileIds: number[], signal?: AbortSignal): Promise<number> {
  let found = 0;
  for (const id of jobFileIds) {
    signal?.throwIfAborted();
    if (await photoFace(db, accountId, id)) found++;
  }
  return found;
}
