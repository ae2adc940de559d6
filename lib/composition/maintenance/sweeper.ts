import { config } from "@/lib/foundation/config";
import { EMBEDDING_MODEL } from "@/lib/engines/ml/faces";
import type { Db } from "@/lib/foundation/db/types";
import { OUTPUT_URL_TTL_SECONDS } from "@/lib/domain/storage";
import { deleteExpiredIdempotencyKeys } from "@/lib/http/idempotency/store";
import { expireQrPdfs, pruneFinishedJobRuns } from "./retention";
import { failAbandonedTasks } from "@/lib/services/face-crop/fail-abandoned-tasks";
import { deleteUnusedReferences } from "@/lib/services/matching/retention";
import { rebuildOutdatedReferences } from "@/lib/services/matching/outdated-references";
import { expireUnreviewedFixJobs } from "@/lib/services/fixes/expire-unreviewed";
import { pruneWebhookDeliveries, requeueStalledDeliveries } from "@/lib/domain/webhooks/retention";
import { webhookConfig } from "@/lib/domain/webhooks/webhook-config";
import { deleteStaleAccountTokens } from "@/lib/domain/identity/one-time-tokens";
import { pruneMail, requeueStalledMail } from "@/lib/domain/mail/deliver-mail";
import { mailConfig } from "@/lib/domain/mail/mail-config";
import { sendClosingReminders } from "@/lib/services/orders/closing-reminders";
import { forgetUnusedReminderEmails } from "@/lib/services/galleries/reminder-emails";
import { removeOldOrderPhotos } from "./order-photos";

const HOUR_MS = 3_600_000;

/**
 * One pass of the retention rules: job runs JOB_RETENTION_DAYS after they end,
 * QR PDFs an hour after their download URL expired, Idempotency-Key records
 * 24 hours after first use, face embeddings MATCHING_RETENTION_DAYS after
 * their agency last used matching, webhook deliveries after WEBHOOK_RETENTION_DAYS,
 * emailed links (reset, confirmation) a day after they expired; and the
 * parents' reminder before a gallery closes (once per gallery); orders' photo
 * files after the studio's order_photo_retention_days.
 * Idempotent, so several instances sweeping the same PostgreSQL database do no harm.
 */
export async function sweepOnce(
  db: Db,
  now = new Date(),
): Promise<{ jobRuns: number; qrPdfs: number; faceCropTasks: number; idempotencyKeys: number; faceEmbeddings: number; webhookDeliveries: number; webhookRequeued: number; unreviewedFixJobs: number; accountTokens: number; mailMessages: number; mailRequeued: number; galleryReminders: number; reminderEmailsForgotten: number; orderPhotos: number }> {
  const jobRuns = await pruneFinishedJobRuns(db, new Date(now.getTime() - config().JOB_RETENTION_DAYS * 24 * HOUR_MS));
  const qrPdfs = await expireQrPdfs(db, new Date(now.getTime() - OUTPUT_URL_TTL_SECONDS * 1000 - HOUR_MS));
  // Face Crop batches answered at once whose process died midway: failed and refunded.
  const faceCropTasks = await failAbandonedTasks(db, now);
  const idempotencyKeys = await deleteExpiredIdempotencyKeys(db, now);
  const faceEmbeddings = await deleteUnusedReferences(db, new Date(now.getTime() - config().MATCHING_RETENTION_DAYS * 24 * HOUR_MS));
  // Webhook deliveries WEBHOOK_RETENTION_DAYS after they were created; pending ones whose job was lost are queued again.
  const webhookDeliveries = await pruneWebhookDeliveries(db, new Date(now.getTime() - webhookConfig().WEBHOOK_RETENTION_DAYS * 24 * HOUR_MS));
  const webhookRequeued = await requeueStalledDeliveries(db, now);
  // AI fixes waiting for a review nobody gave within AI_FIX_REVIEW_HOURS: failed and refunded.
  const unreviewedFixJobs = await expireUnreviewedFixJobs(db, now);
  const accountTokens = await deleteStaleAccountTokens(db, new Date(now.getTime() - 24 * HOUR_MS));
  // Emails: sent or failed ones after MAIL_RETENTION_DAYS; pending ones whose job was lost (or whose sender died) are queued again.
  const mailMessages = await pruneMail(db, new Date(now.getTime() - mailConfig().MAIL_RETENTION_DAYS * 24 * HOUR_MS));
  const mailRequeued = await requeueStalledMail(db, now);
  // Parents with favourites and no paid order, reminded the studio's reminder_days before their gallery closes.
  const galleryReminders = await sendClosingReminders(db, now);
  // Addresses parents gave for a reminder that never went (the gallery closed first): kept for nothing else.
  const reminderEmailsForgotten = await forgetUnusedReminderEmails(db, now);
  // Orders older than the studio's order_photo_retention_days: their print files deleted and downloads ended; the orders stay.
  const orderPhotos = await removeOldOrderPhotos(db, now);
  return { jobRuns, qrPdfs, faceCropTasks, idempotencyKeys, faceEmbeddings, webhookDeliveries, webhookRequeued, unreviewedFixJobs, accountTokens, mailMessages, mailRequeued, galleryReminders, reminderEmailsForgotten, orderPhotos };
}

/** Sweeps a minute after start, then hourly; the timer never keeps the process alive. */
export function startSweeper(getDb: () => Promise<Db>): () => void {
  const sweep = async () => {
    try {
      const done = await sweepOnce(await getDb());
      if (done.jobRuns || done.qrPdfs || done.idempotencyKeys) {
        console.log(`[maintenance] deleted ${done.jobRuns} finished job runs, ${done.qrPdfs} expired QR PDFs and ${done.idempotencyKeys} expired Idempotency-Keys`);
      }
      if (done.faceEmbeddings) console.log(`[maintenance] deleted ${done.faceEmbeddings} face embeddings unused for MATCHING_RETENTION_DAYS`);
      if (done.webhookDeliveries || done.webhookRequeued) console.log(`[maintenance] deleted ${done.webhookDeliveries} old webhook deliveries, queued ${done.webhookRequeued} stalled ones again`);
      if (done.mailMessages || done.mailRequeued) console.log(`[maintenance] deleted ${done.mailMessages} old emails, queued ${done.mailRequeued} stalled ones again`);
      if (done.orderPhotos) console.log(`[maintenance] removed the photo files of ${done.orderPhotos} orders past the studio's order photo retention`);
      if (done.galleryReminders) console.log(`[maintenance] reminded ${done.galleryReminders} parents that their gallery closes soon`);
      if (done.unreviewedFixJobs) console.log(`[maintenance] expired ${done.unreviewedFixJobs} AI fix jobs nobody reviewed within AI_FIX_REVIEW_HOURS, and refunded them`);
      if (done.faceCropTasks) console.log(`[maintenance] ended ${done.faceCropTasks} abandoned face crop batches and refunded what was not cropped`);
    } catch (err) {
      console.error("[maintenance] the retention sweep failed (it runs again in an hour):", err);
    }
    // Not a retention rule: face references of an older recognition model are rebuilt (a durable job per agency).
    try {
      const rebuilding = await rebuildOutdatedReferences(await getDb());
      if (rebuilding) console.log(`[maintenance] face references of ${rebuilding} agencies are being rebuilt for the face recognition model ${EMBEDDING_MODEL}`);
    } catch (err) {
      console.error("[maintenance] starting the face reference rebuild failed (it is tried again in an hour):", err);
    }
  };
  const first = setTimeout(() => void sweep(), 60_000);
  const every = setInterval(() => void sweep(), HOUR_MS);
  first.unref();
  every.unref();
  return () => {
    clearTimeout(first);
    clearInterval(every);
  };
}
