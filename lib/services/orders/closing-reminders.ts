import { and, count, eq, exists, gt, inArray, isNotNull, isNull, lte, notExists, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "@/lib/foundation/db/types";
import { accounts, galleries, galleryAccessCodes, galleryFavourites, galleryPhotos, galleryReminderEmails, gallerySettings, orders, subjects } from "@/lib/foundation/db/schema";
import { appOrigin } from "@/lib/foundation/http/app-origin";
import { queueMail, sendQueuedMail } from "@/lib/domain/mail/send-mail";
import { openCode } from "@/lib/services/galleries/access-codes";
import { galleryLink } from "@/lib/services/galleries/flyer-pdf";
import { closingReminderMail } from "@/lib/services/galleries/parent-mail";
import { GALLERY_SETTING_DEFAULTS } from "@/lib/services/galleries/settings";

/** Reminders per sweep; the next hourly sweep takes the rest. */
const BATCH = 500;

/**
 * The reminder before a gallery closes (the hourly sweep): to the roster's parent
 * address and the addresses parents gave in the gallery (gallery_reminder_emails,
 * deleted once used) of each open child gallery that closes within the studio's
 * reminder_days (gallery settings, default 3; 0 is off), whose child has
 * favourites in the job and no paid order from it. Once per gallery: the
 * gallery is marked in the transaction that queues the message, whose outbox
 * key is the gallery's, so two instances sweeping at once send one.
 */
export async function sendClosingReminders(db: Db, now = new Date()): Promise<number> {
  const reminderDays = sql<number>`coalesce(${gallerySettings.reminderDays}, ${GALLERY_SETTING_DEFAULTS.reminderDays})`;
  // The child's favourites anywhere in the job (its own gallery or the group gallery).
  const favGallery = alias(galleries, "fav_gallery");
  const favouritesOfChild = db
    .select({ one: sql`1` })
    .from(galleryFavourites)
    .innerJoin(galleryPhotos, eq(galleryPhotos.id, galleryFavourites.photoId))
    .innerJoin(favGallery, and(eq(favGallery.id, galleryPhotos.galleryId), eq(favGallery.jobId, galleries.jobId)))
    .where(eq(galleryFavourites.subjectId, galleries.subjectId));
  const givenAddress = db
    .select({ one: sql`1` })
    .from(galleryReminderEmails)
    .where(and(eq(galleryReminderEmails.jobId, galleries.jobId), eq(galleryReminderEmails.subjectId, galleries.subjectId)));
  const paidOrder = db
    .select({ one: sql`1` })
    .from(orders)
    .where(and(eq(orders.accountId, galleries.accountId), eq(orders.jobId, galleries.jobId), eq(orders.subjectId, galleries.subjectId), isNotNull(orders.paidAt)));
  const due = await db
    .select({ gallery: galleries, child: subjects.name, email: subjects.parentEmail, sealed: galleryAccessCodes.sealed, studio: accounts.name })
    .from(galleries)
    .innerJoin(subjects, eq(subjects.id, galleries.subjectId))
    .innerJoin(galleryAccessCodes, and(eq(galleryAccessCodes.jobId, galleries.jobId), eq(galleryAccessCodes.subjectId, galleries.subjectId)))
    .innerJoin(accounts, eq(accounts.id, galleries.accountId))
    .leftJoin(gallerySettings, eq(gallerySettings.accountId, galleries.accountId))
    .where(
      and(
        eq(galleries.kind, "subject"),
        eq(galleries.status, "published"),
        isNull(galleries.remindedAt),
        or(isNotNull(subjects.parentEmail), exists(givenAddress)),
        gt(galleries.expiresAt, now),
        lte(galleries.expiresAt, sql`${now.toISOString()}::timestamptz + ${reminderDays} * interval '1 day'`),
        sql`${reminderDays} > 0`,
        exists(favouritesOfChild),
        notExists(paidOrder),
      ),
    )
    .limit(BATCH);
  if (due.length === 0) return 0;
  const favourites = await db
    .select({ subjectId: galleryFavourites.subjectId, jobId: galleries.jobId, n: count() })
    .from(galleryFavourites)
    .innerJoin(galleryPhotos, eq(galleryPhotos.id, galleryFavourites.photoId))
    .innerJoin(galleries, eq(galleries.id, galleryPhotos.galleryId))
    .where(inArray(galleryFavourites.subjectId, due.map((d) => d.gallery.subjectId!)))
    .groupBy(galleryFavourites.subjectId, galleries.jobId);
  const given = await db
    .select()
    .from(galleryReminderEmails)
    .where(inArray(galleryReminderEmails.subjectId, due.map((d) => d.gallery.subjectId!)));
  const origin = appOrigin();
  let sent = 0;
  for (const d of due) {
    const g = d.gallery;
    const code = openCode(d.sealed);
    const mine = and(eq(galleryReminderEmails.jobId, g.jobId), eq(galleryReminderEmails.subjectId, g.subjectId!));
    const asked = given.filter((a) => a.jobId === g.jobId && a.subjectId === g.subjectId).map((a) => a.email);
    // The roster's address keeps the gallery's own outbox key (one reminder per gallery); each given one adds its address.
    const recipients = [...(d.email ? [{ to: d.email, key: `gallery-reminder:${g.id}` }] : []), ...asked.filter((a) => a !== d.email).map((a) => ({ to: a, key: `gallery-reminder:${g.id}:${a}` }))];
    const letter = (to: string) =>
      closingReminderMail({
        to,
        studio: d.studio || "Your photographer",
        child: d.child,
        code,
        url: galleryLink(origin, code),
        expiresAt: g.expiresAt!,
        favourites: favourites.find((f) => f.subjectId === g.subjectId && f.jobId === g.jobId)?.n ?? 1,
      });
    const queued = await db.transaction(async (tx) => {
      const [marked] = await tx.update(galleries).set({ remindedAt: now }).where(and(eq(galleries.id, g.id), isNull(galleries.remindedAt))).returning({ id: galleries.id });
      if (!marked) return [];
      await tx.delete(galleryReminderEmails).where(mine);
      const out = [];
      for (const r of recipients) out.push(await queueMail(tx, letter(r.to), { key: r.key, accountId: g.accountId }));
      return out;
    });
    for (const q of queued.filter((q) => q.queued)) {
      await sendQueuedMail(db, q);
      sent++;
    }
  }
  return sent;
}
