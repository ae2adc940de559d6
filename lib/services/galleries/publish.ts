import { and, count, eq, inArray, isNull, max, notInArray } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { galleries, galleryPhotos, jobFiles, subjects } from "@/lib/foundation/db/schema";
import { ApiError, badRequest, conflict } from "@/lib/foundation/http/api-error";
import { newId } from "@/lib/foundation/ids";
import { startJob } from "@/lib/domain/jobs/start-job";
import { appOrigin } from "@/lib/foundation/http/app-origin";
import { requireJob } from "@/lib/services/agencies/agency-jobs";
import { queueCodeMails, sendCodeMailsNow } from "./code-mail";
import { reserveAccessCodes } from "./reserve-codes";
import type { PublishBody } from "./schemas";
import { gallerySettingsOf } from "./settings";
import { sortedPhotosOf } from "./sorted-photos";

const DAY_MS = 86_400_000;

/**
 * POST /v1/services/studio/agencies/{agencyId}/jobs/{jobId}/galleries: makes or
 * updates the job's galleries from its sorting and publishes them (free). One
 * gallery per child with sorted photos, with its access code (made once, when
 * the cards were printed or now: reserve-codes.ts; a
 * republish after more sorting adds the new photos and never changes a code;
 * a photo filed under another child since leaves the first one's gallery); the group
 * gallery when the studio has them on and names its photos. `draft: true`
 * makes them (and their codes, for printing) without opening them. Previews are
 * rendered by the gallery-previews job; a photo shows once its preview exists.
 * `yearbook_deadline` sets until when parents may pick the yearbook pose (yearbook-pose.ts).
 * Publishing (not a draft) e-mails each child's code to the parent address on
 * the roster, once per code (lib/services/galleries/code-mail.ts).
 */
export async function publishJobGalleries(db: Db, accountId: string, agencyId: number, jobId: number, body: PublishBody) {
  await requireJob(db, accountId, agencyId, jobId);
  const settings = await gallerySettingsOf(db, accountId);
  const { sorted, photos } = await sortedPhotosOf(db, accountId, jobId);
  if (!sorted) throw conflict("JOB_NOT_SORTED", `Job ${jobId} has no finished QR sort or face matching: sort its photos to children before publishing galleries.`);
  // Only children still on the agency's roster.
  const subjectIds = [...new Set(photos.map((p) => p.subjectId))];
  const roster = subjectIds.length
    ? new Set((await db.select({ id: subjects.id }).from(subjects).where(and(eq(subjects.accountId, accountId), eq(subjects.agencyId, agencyId), inArray(subjects.id, subjectIds)))).map((s) => s.id))
    : new Set<string>();
  const groupFileIds = [...new Set(body.group_file_ids ?? [])];
  if (groupFileIds.length > 0) {
    if (!settings.groupGallery) throw badRequest("GROUP_GALLERY_OFF", "Group galleries are off in the studio's gallery settings (group_gallery).", { field: "group_file_ids" });
    const found = await db.select({ id: jobFiles.id }).from(jobFiles).where(and(eq(jobFiles.accountId, accountId), eq(jobFiles.jobId, jobId), inArray(jobFiles.id, groupFileIds)));
    const missing = groupFileIds.filter((id) => !found.some((f) => f.id === id));
    if (missing.length) throw new ApiError(400, "FILE_NOT_IN_JOB", `Not photos of job ${jobId}: ${missing.join(", ")}.`, { field: "group_file_ids", file_ids: missing });
  }
  const now = new Date();
  const expiresAt = new Date(now.getTime() + (body.expiry_days ?? settings.expiryDays) * DAY_MS);
  const status = body.draft ? ("draft" as const) : ("published" as const);
  let photosAdded = 0;
  let galleryCount = 0;
  const mailed = await db.transaction(async (tx) => {
    const galleryOf = async (kind: "subject" | "group", subjectId: string | null) => {
      const [existing] = await tx
        .select()
        .from(galleries)
        .where(and(eq(galleries.jobId, jobId), eq(galleries.accountId, accountId), subjectId ? eq(galleries.subjectId, subjectId) : and(eq(galleries.kind, "group"), isNull(galleries.subjectId))));
      // A draft publish never takes down a gallery already open.
      const nextStatus = existing && status === "draft" ? existing.status : status;
      if (existing) {
        await tx
          .update(galleries)
          .set({ status: nextStatus, expiresAt: nextStatus === "published" ? expiresAt : existing.expiresAt, publishedAt: nextStatus === "published" ? (existing.publishedAt ?? now) : existing.publishedAt, closedAt: nextStatus === "published" ? null : existing.closedAt, updatedAt: now })
          .where(eq(galleries.id, existing.id));
        return existing.id;
      }
      const id = newId("gal");
      await tx.insert(galleries).values({ id, accountId, jobId, kind, subjectId, status, expiresAt: status === "published" ? expiresAt : null, publishedAt: status === "published" ? now : null });
      return id;
    };
    // Codes printed on the cards before the shoot are these same ones (card-codes.ts).
    await reserveAccessCodes(tx, accountId, jobId, subjectIds.filter((s) => roster.has(s)));
    for (const subjectId of subjectIds.filter((s) => roster.has(s))) {
      const galleryId = await galleryOf("subject", subjectId);
      galleryCount++;
      const mine = photos.filter((p) => p.subjectId === subjectId);
      // A photo the photographer has since filed under someone else leaves this child's gallery.
      const keep = mine.map((p) => p.fileId);
      await tx.delete(galleryPhotos).where(and(eq(galleryPhotos.galleryId, galleryId), keep.length ? notInArray(galleryPhotos.jobFileId, keep) : undefined));
      const inserted = await tx
        .insert(galleryPhotos)
        .values(mine.map((p) => ({ id: newId("gph"), galleryId, accountId, jobFileId: p.fileId, source: p.source, position: p.position })))
        .onConflictDoNothing()
        .returning({ id: galleryPhotos.id });
      photosAdded += inserted.length;
    }
    // The job's yearbook deadline on every child gallery, new ones included: the one sent, else the one set before.
    const [{ deadline } = { deadline: null }] = await tx
      .select({ deadline: max(galleries.yearbookDeadline) })
      .from(galleries)
      .where(and(eq(galleries.jobId, jobId), eq(galleries.accountId, accountId), eq(galleries.kind, "subject")));
    const yearbookDeadline = body.yearbook_deadline === undefined ? deadline : body.yearbook_deadline ? new Date(body.yearbook_deadline) : null;
    await tx.update(galleries).set({ yearbookDeadline }).where(and(eq(galleries.jobId, jobId), eq(galleries.accountId, accountId), eq(galleries.kind, "subject")));
    // A child whose every photo went to others keeps the gallery (and code), empty.
    const current = subjectIds.filter((s) => roster.has(s));
    const emptied = await tx
      .select({ id: galleries.id })
      .from(galleries)
      .where(and(eq(galleries.jobId, jobId), eq(galleries.accountId, accountId), eq(galleries.kind, "subject"), current.length ? notInArray(galleries.subjectId, current) : undefined));
    if (emptied.length) await tx.delete(galleryPhotos).where(inArray(galleryPhotos.galleryId, emptied.map((g) => g.id)));
    const [group] = await tx.select({ id: galleries.id }).from(galleries).where(and(eq(galleries.jobId, jobId), eq(galleries.kind, "group")));
    if (settings.groupGallery && (groupFileIds.length > 0 || group)) {
      const galleryId = await galleryOf("group", null);
      galleryCount++;
      if (groupFileIds.length > 0) {
        const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(galleryPhotos).where(eq(galleryPhotos.galleryId, galleryId));
        const inserted = await tx
          .insert(galleryPhotos)
          .values(groupFileIds.map((fileId, i) => ({ id: newId("gph"), galleryId, accountId, jobFileId: fileId, source: "group" as const, position: n + i })))
          .onConflictDoNothing()
          .returning({ id: galleryPhotos.id });
        photosAdded += inserted.length;
      }
    } else if (!settings.groupGallery && group) {
      // Turned off since: the group gallery closes with this publish.
      await tx.update(galleries).set({ status: "closed", closedAt: now, updatedAt: now }).where(eq(galleries.id, group.id));
    }
    await startJob(tx, { name: "galleries/previews.requested", data: { accountId, jobId } });
    // Open galleries: each parent on the roster gets the child's code, once (publishing again mails only new ones).
    return status === "published" ? (await queueCodeMails(tx, accountId, jobId, { resend: false })).queued : [];
  });
  await sendCodeMailsNow(db, mailed);
  const [{ n: pending } = { n: 0 }] = await db
    .select({ n: count() })
    .from(galleryPhotos)
    .innerJoin(galleries, eq(galleries.id, galleryPhotos.galleryId))
    .where(and(eq(galleries.jobId, jobId), eq(galleries.accountId, accountId), isNull(galleryPhotos.previewKey)));
  return { job_id: jobId, galleries: galleryCount, photos_added: photosAdded, previews_pending: pending, gallery_url: `${appOrigin()}/g`, codes_emailed: mailed.length };
}
