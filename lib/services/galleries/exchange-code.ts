import { and, count, eq, inArray, isNotNull } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { accounts, agencyJobs, galleries, galleryAccessCodes, galleryPhotos, subjects } from "@/lib/foundation/db/schema";
import { ApiError } from "@/lib/foundation/http/api-error";
import { codeLookup, normaliseCode } from "./access-codes";
import { assertCodeAttemptAllowed, recordWrongCode } from "./code-attempts";
import { openGalleriesOf } from "./open-galleries";
import { issueParentToken, parentTokenExpiry, type ParentClaims } from "./parent-token";
import type { ParentGallery } from "./schemas";
import { startJob } from "@/lib/domain/jobs/start-job";
import { logger } from "@/lib/foundation/log/logger";

/** One answer for every code that opens nothing (unknown, malformed, closed, expired): it never says which. */
const wrongCode = () => new ApiError(401, "INVALID_ACCESS_CODE", "This code does not open a gallery. Check it against the card or flyer.");

/**
 * POST /v1/parent/access: a child's access code for a gallery token (signed,
 * expiring) and the galleries it opens now: the child's own and the job's group
 * gallery, while published and not expired.
 */
export async function exchangeAccessCode(db: Db, rawCode: string, ip: string) {
  const normalised = normaliseCode(rawCode);
  // Something that cannot be a code is counted against the same limits as a wrong one.
  const lookup = codeLookup(normalised ?? rawCode.trim().toUpperCase());
  await assertCodeAttemptAllowed(ip, lookup);
  const [row] = normalised ? await db.select().from(galleryAccessCodes).where(eq(galleryAccessCodes.lookup, lookup)) : [];
  const open = row ? await openGalleriesOf(db, row) : [];
  if (!row || open.length === 0) {
    await recordWrongCode(ip);
    throw wrongCode();
  }
  const claims: ParentClaims = { accountId: row.accountId, jobId: row.jobId, subjectId: row.subjectId };
  await findFacesAhead(db, row.accountId, row.jobId, open.find((g) => g.kind === "subject")!.id);
  const expiresAt = parentTokenExpiry(open.map((g) => g.expiresAt));
  return {
    token: await issueParentToken(claims, expiresAt),
    token_type: "Bearer" as const,
    expires_at: expiresAt.toISOString(),
    galleries: await describeParentGalleries(db, open.map((g) => g.id)),
  };
}

/**
 * Starts inngest/gallery-faces.ts for the child's own gallery, so the faces the
 * cart's crops start from are found while the parent browses (the job looks
 * only if the job's price sheet sells a print: orders' business, not the
 * galleries'). At most one run an hour a gallery (the event id), however often
 * the code is entered; a queue that cannot take it costs the parent nothing
 * (the cart finds faces itself).
 */
async function findFacesAhead(db: Db, accountId: string, jobId: number, galleryId: string) {
  const hour = Math.floor(Date.now() / 3600_000);
  try {
    await startJob(db, { name: "galleries/faces.requested", data: { accountId, jobId, galleryId } }, { id: `gfaces_${galleryId}_${hour}` });
  } catch (err) {
    logger().warn({ err, galleryId }, "gallery faces: could not queue the search ahead of the cart");
  }
}

/** The galleries as a parent sees them: a title, the studio's name, how many photos have a preview. */
export async function describeParentGalleries(db: Db, galleryIds: string[]): Promise<ParentGallery[]> {
  if (galleryIds.length === 0) return [];
  const rows = await db
    .select({ gallery: galleries, subjectName: subjects.name, jobName: agencyJobs.name, studioName: accounts.name })
    .from(galleries)
    .innerJoin(agencyJobs, eq(agencyJobs.id, galleries.jobId))
    .innerJoin(accounts, eq(accounts.id, galleries.accountId))
    .leftJoin(subjects, eq(subjects.id, galleries.subjectId))
    .where(inArray(galleries.id, galleryIds));
  const counts = await db
    .select({ galleryId: galleryPhotos.galleryId, n: count() })
    .from(galleryPhotos)
    .where(and(inArray(galleryPhotos.galleryId, galleryIds), isNotNull(galleryPhotos.previewKey)))
    .groupBy(galleryPhotos.galleryId);
  const byId = new Map(rows.map((r) => [r.gallery.id, r]));
  return galleryIds.flatMap((id) => {
    const r = byId.get(id);
    if (!r) return [];
    return [
      {
        id,
        kind: r.gallery.kind,
        title: r.gallery.kind === "group" ? r.jobName : (r.subjectName ?? ""),
        studio_name: r.studioName,
        photo_count: counts.find((c) => c.galleryId === id)?.n ?? 0,
        expires_at: r.gallery.expiresAt?.toISOString() ?? null,
      },
    ];
  });
}
