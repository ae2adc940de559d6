import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { accounts, agencyJobs, galleries, galleryAccessCodes, subjects } from "@/lib/foundation/db/schema";
import { ApiError } from "@/lib/foundation/http/api-error";
import { appOrigin } from "@/lib/foundation/http/app-origin";
import { queueMail, sendQueuedMail, type QueuedMail } from "@/lib/domain/mail/send-mail";
import { requireJob } from "@/lib/services/agencies/agency-jobs";
import { openCode } from "./access-codes";
import { galleryLink } from "./flyer-pdf";
import { codeMail } from "./parent-mail";
import type { SendCodesBody } from "./schemas";
import { effectiveStatus } from "./studio-galleries";

/** First attempts made while the studio waits; the rest go out through the mail-delivery job a minute later. */
const SEND_NOW_AT_MOST = 50;
const SEND_NOW_AT_ONCE = 4;

export type CodeMailOutcome = { queued: QueuedMail[]; already_sent: number; without_email: number; not_open: number };

/**
 * Queues, in `tx`, the e-mail of each child's access code to the parent address
 * on the roster, for the job's open child galleries. `resend: false` mails only
 * codes never mailed; `resend: true` mails again on purpose. The outbox key is
 * the code's id and its send number, so the same publish or request run twice
 * (a retry, a double click, two admins at once) queues one message, never two.
 */
export async function queueCodeMails(tx: Db, accountId: string, jobId: number, opts: { resend: boolean; subjectIds?: string[] }): Promise<CodeMailOutcome> {
  const rows = await tx
    .select({
      codeId: galleryAccessCodes.id,
      sealed: galleryAccessCodes.sealed,
      mailSends: galleryAccessCodes.mailSends,
      subjectId: galleryAccessCodes.subjectId,
      child: subjects.name,
      email: subjects.parentEmail,
      status: galleries.status,
      expiresAt: galleries.expiresAt,
    })
    .from(galleryAccessCodes)
    .innerJoin(subjects, eq(subjects.id, galleryAccessCodes.subjectId))
    .innerJoin(galleries, and(eq(galleries.jobId, galleryAccessCodes.jobId), eq(galleries.subjectId, galleryAccessCodes.subjectId)))
    .where(and(eq(galleryAccessCodes.accountId, accountId), eq(galleryAccessCodes.jobId, jobId), opts.subjectIds ? inArray(galleryAccessCodes.subjectId, opts.subjectIds) : undefined));
  if (opts.subjectIds) {
    const missing = opts.subjectIds.filter((id) => !rows.some((r) => r.subjectId === id));
    if (missing.length) throw new ApiError(400, "SUBJECT_NOT_IN_JOB", `No gallery code of job ${jobId} for: ${missing.join(", ")}.`, { field: "subject_ids", subject_ids: missing });
  }
  const [names] = await tx
    .select({ studio: accounts.name, job: agencyJobs.name })
    .from(agencyJobs)
    .innerJoin(accounts, eq(accounts.id, agencyJobs.accountId))
    .where(and(eq(agencyJobs.id, jobId), eq(agencyJobs.accountId, accountId)));
  const origin = appOrigin();
  const outcome: CodeMailOutcome = { queued: [], already_sent: 0, without_email: 0, not_open: 0 };
  for (const r of rows) {
    if (!r.email) outcome.without_email++;
    else if (effectiveStatus(r) !== "published") outcome.not_open++;
    else if (r.mailSends > 0 && !opts.resend) outcome.already_sent++;
    else {
      const code = openCode(r.sealed);
      const send = r.mailSends + 1;
      const message = codeMail({ to: r.email, studio: names?.studio || "Your photographer", job: names?.job ?? "", child: r.child, code, url: galleryLink(origin, code), expiresAt: r.expiresAt });
      const queued = await queueMail(tx, message, { key: `gallery-code:${r.codeId}:${send}`, accountId });
      // Only the request that queued send n moves the count to n (a concurrent twin's key was taken).
      if (queued.queued) {
        await tx.update(galleryAccessCodes).set({ mailSends: send, mailedTo: r.email, mailedAt: sql`now()` }).where(eq(galleryAccessCodes.id, r.codeId));
        outcome.queued.push(queued);
      } else outcome.already_sent++;
    }
  }
  return outcome;
}

/**
 * After the queueing transaction committed: first attempts for the first few, a
 * handful at a time. A message left pending (the mail server slow or away) stops
 * them: the studio does not wait out a timeout per parent, the mail job retries.
 */
export async function sendCodeMailsNow(db: Db, queued: QueuedMail[]): Promise<void> {
  const now = queued.slice(0, SEND_NOW_AT_MOST);
  for (let i = 0; i < now.length; i += SEND_NOW_AT_ONCE) {
    const outcomes = await Promise.all(now.slice(i, i + SEND_NOW_AT_ONCE).map((q) => sendQueuedMail(db, q)));
    if (outcomes.includes("pending")) return;
  }
}

/** POST .../galleries/send-codes: the codes e-mailed now (never-mailed ones, or again with `resend`), and who got none and why. */
export async function sendJobCodes(db: Db, accountId: string, agencyId: number, jobId: number, body: SendCodesBody) {
  await requireJob(db, accountId, agencyId, jobId);
  const subjectIds = body.subject_ids ? [...new Set(body.subject_ids)] : undefined;
  const outcome = await db.transaction((tx) => queueCodeMails(tx, accountId, jobId, { resend: body.resend ?? false, subjectIds }));
  await sendCodeMailsNow(db, outcome.queued);
  return { job_id: jobId, emailed: outcome.queued.length, already_sent: outcome.already_sent, without_email: outcome.without_email, not_open: outcome.not_open };
}
