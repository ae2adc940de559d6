import { and, eq, gt, isNull, or, sql } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { galleries } from "@/lib/foundation/db/schema";

/** A gallery parents can open: published and not past its expiry. */
export const isOpen = (now = new Date()) => and(eq(galleries.status, "published"), or(isNull(galleries.expiresAt), gt(galleries.expiresAt, now)));

/**
 * What one child's code opens, now: that child's own gallery and the job's group
 * gallery, each only while open, and nothing once the child's own gallery is closed. Read on every parent request, so closing,
 * expiring or deleting takes effect at once for tokens already issued.
 */
export async function openGalleriesOf(db: Db, scope: { accountId: string; jobId: number; subjectId: string }) {
  const open = await db
    .select()
    .from(galleries)
    .where(
      and(
        eq(galleries.accountId, scope.accountId),
        eq(galleries.jobId, scope.jobId),
        or(and(eq(galleries.kind, "subject"), eq(galleries.subjectId, scope.subjectId)), eq(galleries.kind, "group")),
        isOpen(),
      ),
    )
    // The child's own gallery first.
    .orderBy(sql`${galleries.kind} = 'group'`);
  // A code whose own gallery is closed opens nothing, not even the group gallery.
  return open.some((g) => g.kind === "subject") ? open : [];
}
