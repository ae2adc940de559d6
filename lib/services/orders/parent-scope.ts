import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { galleryPhotos } from "@/lib/foundation/db/schema";
import type { ParentPrincipal } from "@/lib/services/galleries/parent-principal";

/**
 * What a parent's gallery token opens (withParent's principal): the studio, the
 * job, the child, and the galleries open to the code now (the child's own and the
 * job's group gallery).
 */
export type ParentScope = ParentPrincipal;

/** The photo ids of `photoIds` the parent may buy: photos of the galleries the code opens, and no other. */
export async function purchasablePhotos(db: Db, scope: ParentScope, photoIds: string[]): Promise<Set<string>> {
  if (photoIds.length === 0 || scope.galleryIds.length === 0) return new Set();
  const rows = await db
    .select({ id: galleryPhotos.id })
    .from(galleryPhotos)
    .where(and(eq(galleryPhotos.accountId, scope.accountId), inArray(galleryPhotos.galleryId, scope.galleryIds), inArray(galleryPhotos.id, [...new Set(photoIds)])));
  return new Set(rows.map((r) => r.id));
}
