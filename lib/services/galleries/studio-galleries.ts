import { and, asc, count, eq, inArray, isNotNull, sql } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { galleries, galleryAccessCodes, galleryPhotos, subjects, yearbookPoses } from "@/lib/foundation/db/schema";
import { conflict } from "@/lib/foundation/http/api-error";
import { requireJob } from "@/lib/services/agencies/agency-jobs";
import { openCode } from "./access-codes";
import { gallerySettingsOf } from "./settings";

const DAY_MS = 86_400_000;

/** GET .../jobs/{jobId}/galleries: the job's galleries with each child's access code, the group gallery last. */
export async function listJobGalleries(db: Db, accountId: string, agencyId: number, jobId: number, page: { limit: number; offset: number }) {
  await requireJob(db, accountId, agencyId, jobId);
  const where = and(eq(galleries.accountId, accountId), eq(galleries.jobId, jobId));
  const [rows, [total]] = await Promise.all([
    db
      .select({ gallery: galleries, studentId: subjects.studentId, name: subjects.name, parentEmail: subjects.parentEmail, code: galleryAccessCodes, pose: yearbookPoses.photoId })
      .from(galleries)
      .leftJoin(subjects, eq(subjects.id, galleries.subjectId))
      .leftJoin(yearbookPoses, and(eq(yearbookPoses.jobId, galleries.jobId), eq(yearbookPoses.subjectId, galleries.subjectId)))
      .leftJoin(galleryAccessCodes, and(eq(galleryAccessCodes.jobId, galleries.jobId), eq(galleryAccessCodes.subjectId, galleries.subjectId)))
      .where(where)
      .orderBy(sql`${galleries.kind} = 'group'`, asc(subjects.studentId), asc(galleries.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(galleries).where(where),
  ]);
  const ids = rows.map((r) => r.gallery.id);
  const counts = ids.length
    ? await db
        .select({ galleryId: galleryPhotos.galleryId, n: count(), ready: sql<number>`count(${galleryPhotos.previewKey})::int` })
        .from(galleryPhotos)
        .where(inArray(galleryPhotos.galleryId, ids))
        .groupBy(galleryPhotos.galleryId)
    : [];
  const items = rows.map(({ gallery: g, studentId, name, parentEmail, code, pose }) => {
    const c = counts.find((x) => x.galleryId === g.id);
    return {
      id: g.id,
      kind: g.kind,
      subject_id: g.subjectId,
      student_id: studentId,
      name,
      access_code: code ? openCode(code.sealed) : null,
      status: effectiveStatus(g),
      expires_at: g.expiresAt?.toISOString() ?? null,
      published_at: g.publishedAt?.toISOString() ?? null,
      photo_count: c?.n ?? 0,
      previews_ready: Number(c?.ready ?? 0),
      parent_email: parentEmail,
      code_emailed_at: code?.mailedAt?.toISOString() ?? null,
      code_emailed_to: code?.mailedTo ?? null,
      code_emails: code?.mailSends ?? 0,
      yearbook_deadline: g.yearbookDeadline?.toISOString() ?? null,
      yearbook_pose_chosen: pose !== null,
    };
  });
  return { items, total: total?.n ?? 0 };
}

/** A published gallery past its expiry is closed to parents, and says so. */
export function effectiveStatus(g: { status: "draft" | "published" | "closed"; expiresAt: Date | null }) {
  return g.status === "published" && g.expiresAt && g.expiresAt.getTime() <= Date.now() ? ("closed" as const) : g.status;
}

/** POST .../galleries/close: every gallery of the job closes now; tokens already issued stop opening them at once. */
export async function closeJobGalleries(db: Db, accountId: string, agencyId: number, jobId: number) {
  await requireJob(db, accountId, agencyId, jobId);
  const now = new Date();
  const closed = await db
    .update(galleries)
    .set({ status: "closed", closedAt: now, updatedAt: now })
    .where(and(eq(galleries.accountId, accountId), eq(galleries.jobId, jobId), inArray(galleries.status, ["published", "draft"])))
    .returning({ id: galleries.id });
  return { job_id: jobId, galleries: closed.length, status: "closed" as const };
}

/** POST .../galleries/reopen: the job's published or closed galleries open again until a new expiry; codes unchanged. */
export async function reopenJobGalleries(db: Db, accountId: string, agencyId: number, jobId: number, expiryDays?: number) {
  await requireJob(db, accountId, agencyId, jobId);
  const settings = await gallerySettingsOf(db, accountId);
  const now = new Date();
  const expiresAt = new Date(now.getTime() + (expiryDays ?? settings.expiryDays) * DAY_MS);
  const [any] = await db.select({ id: galleries.id }).from(galleries).where(and(eq(galleries.accountId, accountId), eq(galleries.jobId, jobId), isNotNull(galleries.publishedAt))).limit(1);
  if (!any) throw conflict("GALLERIES_NOT_PUBLISHED", `Job ${jobId}'s galleries were never published: publish them first.`);
  const reopened = await db
    .update(galleries)
    .set({ status: "published", expiresAt, closedAt: null, updatedAt: now })
    // A group gallery the studio has turned off stays closed.
    .where(and(eq(galleries.accountId, accountId), eq(galleries.jobId, jobId), isNotNull(galleries.publishedAt), settings.groupGallery ? undefined : eq(galleries.kind, "subject")))
    .returning({ id: galleries.id });
  return { job_id: jobId, galleries: reopened.length, status: "published" as const, expires_at: expiresAt.toISOString() };
}
