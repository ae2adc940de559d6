import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "@/lib/db/types";
import { jobFiles } from "@/lib/db/schema";

/**
 * What a parent's gallery token opens (the galleries' `withParent` gives it to
 * handlers): the studio, the job, the child, and the galleries the code opens
 * (the child's own and the job's group gallery).
 */
export type ParentScope = { accountId: string; jobId: number; subjectId: string; galleryIds: string[] };

/**
 * The photo ids of `photoIds` the parent may buy: photos of the job the code
 * belongs to. The galleries narrow this to the photos of `galleryIds`.
 */
export async function purchasablePhotos(db: Db, scope: ParentScope, photoIds: string[]): Promise<Set<string>> {
  const ints = photoIds.filter((p) => /^[0-9]{1,10}$/.test(p)).map(Number).filter((n) => n <= 2_147_483_647);
  if (ints.length === 0) return new Set();
  const rows = await db
    .select({ id: jobFiles.id })
    .from(jobFiles)
    .where(and(eq(jobFiles.accountId, scope.accountId), eq(jobFiles.jobId, scope.jobId), inArray(jobFiles.id, ints)));
  return new Set(rows.map((r) => String(r.id)));
}
