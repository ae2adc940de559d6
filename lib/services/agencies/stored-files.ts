import { storage } from "@/lib/domain/storage";
import type { jobFiles } from "@/lib/foundation/db/schema";

type StoredPair = Pick<typeof jobFiles.$inferSelect, "storageKey" | "thumbnailKey">;

/**
 * A job photo's or a reference portrait's stored objects (the photo and its
 * thumbnail), deleted once their rows are gone. Its own file: deleting an agency, a job or one photo all end here,
 * and none of those modules needs the others for it.
 */
export async function deleteStoredFiles(rows: StoredPair[]) {
  for (const row of rows) await Promise.all([storage().delete(row.storageKey), storage().delete(row.thumbnailKey)]);
}
