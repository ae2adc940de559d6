import { and, count, eq, exists, inArray, isNotNull, lte, or, sql } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { galleries, galleryReminderEmails } from "@/lib/foundation/db/schema";
import { ApiError } from "@/lib/foundation/http/api-error";
import type { ParentPrincipal } from "./parent-principal";
import { gallerySettingsOf } from "./settings";

/** Addresses per child: the family's, not a mailing list anyone holding the code could grow. */
export const MAX_REMINDER_EMAILS = 3;
const DAY_MS = 86_400_000;

/**
 * A parent asks to be reminded before the child's gallery closes (the roster may
 * carry no address, and favourites carry none). Repeating an address is harmless;
 * the answer never lists the other addresses given with the same code.
 */
export async function addReminderEmail(db: Db, p: ParentPrincipal, email: string) {
  const [own] = await db
    .select({ expiresAt: galleries.expiresAt, remindedAt: galleries.remindedAt })
    .from(galleries)
    .where(and(inArray(galleries.id, p.galleryIds), eq(galleries.kind, "subject"), eq(galleries.subjectId, p.subjectId)));
  if (!own) throw new ApiError(409, "NO_CHILD_GALLERY", "This code opens no gallery of its own to be reminded of.");
  await db.transaction(async (tx) => {
    const child = and(eq(galleryReminderEmails.jobId, p.jobId), eq(galleryReminderEmails.subjectId, p.subjectId));
    const [given] = await tx.select({ email: galleryReminderEmails.email }).from(galleryReminderEmails).where(and(child, eq(galleryReminderEmails.email, email)));
    if (given) return;
    const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(galleryReminderEmails).where(child);
    if (n >= MAX_REMINDER_EMAILS) throw new ApiError(409, "TOO_MANY_REMINDER_EMAILS", `This gallery already has ${MAX_REMINDER_EMAILS} addresses for its reminder.`, { field: "email", max: MAX_REMINDER_EMAILS });
    await tx.insert(galleryReminderEmails).values({ jobId: p.jobId, subjectId: p.subjectId, email, accountId: p.accountId }).onConflictDoNothing();
  });
  const { reminderDays } = await gallerySettingsOf(db, p.accountId);
  const remindAt = own.expiresAt && reminderDays > 0 && !own.remindedAt ? new Date(Math.max(Date.now(), own.expiresAt.getTime() - reminderDays * DAY_MS)) : null;
  return { email, closes_at: own.expiresAt?.toISOString() ?? null, remind_at: remindAt?.toISOString() ?? null };
}

/** The hourly sweep: addresses of galleries that closed (or ran out) before a reminder used them. */
export async function forgetUnusedReminderEmails(db: Db, now = new Date()): Promise<number> {
  const ended = db
    .select({ one: sql`1` })
    .from(galleries)
    .where(
      and(
        eq(galleries.jobId, galleryReminderEmails.jobId),
        eq(galleries.subjectId, galleryReminderEmails.subjectId),
        eq(galleries.kind, "subject"),
        or(eq(galleries.status, "closed"), and(isNotNull(galleries.expiresAt), lte(galleries.expiresAt, now))),
      ),
    );
  const gone = await db.delete(galleryReminderEmails).where(exists(ended)).returning({ email: galleryReminderEmails.email });
  return gone.length;
}
