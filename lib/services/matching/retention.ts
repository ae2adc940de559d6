import { and, inArray, isNull, lt, or } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { agencies, faceReferences } from "@/lib/foundation/db/schema";
import { forgetJobFaceEmbeddings } from "./group-job-faces";

/**
 * Embeddings are kept only while they are used: those of agencies that have not
 * built references or run a match job since `before` are deleted (references, and
 * job faces a match job left ungrouped; the agency, its roster and its photos stay;
 * a new build makes them again).
 */
export async function deleteUnusedReferences(db: Db, before: Date): Promise<number> {
  const idle = db
    .select({ id: agencies.id })
    .from(agencies)
    .where(or(lt(agencies.matchingUsedAt, before), and(isNull(agencies.matchingUsedAt), lt(agencies.createdAt, before))));
  await forgetJobFaceEmbeddings(db, idle);
  const gone = await db.delete(faceReferences).where(inArray(faceReferences.agencyId, idle)).returning({ id: faceReferences.id });
  return gone.length;
}

