import { eventType } from "inngest";
import { z } from "zod";

/**
 * Every event that starts async work, each with its zod schema. Events carry
 * ids only: the job row is the source of truth, so a replayed or late event
 * cannot carry stale options.
 */

export const bgRemoveRequested = eventType("bg-remove/job.requested", {
  schema: z.object({ jobId: z.string().startsWith("job_"), accountId: z.string().min(1) }),
});

export const faceCropRequested = eventType("face-crop/task.requested", {
  schema: z.object({ taskId: z.string().startsWith("task_"), accountId: z.string().min(1) }),
});

/** AI fix jobs (inngest/fixes.ts): a new job, and a reviewed job the caller approved. */
export const aiFixRequested = eventType("ai-fix/job.requested", {
  schema: z.object({ jobId: z.string().startsWith("job_"), accountId: z.string().min(1) }),
});
export const aiFixApproved = eventType("ai-fix/job.approved", {
  schema: z.object({ jobId: z.string().startsWith("job_"), accountId: z.string().min(1) }),
});
export const aiFixJobEvents = [aiFixRequested, aiFixApproved] as const;

/** AI Face Matching (inngest/face-matching.ts): a reference build from 20 subjects, and a match job. */
export const referencesRequested = eventType("matching/references.requested", {
  schema: z.object({ taskId: z.string().startsWith("task_"), accountId: z.string().min(1) }),
});
export const matchJobRequested = eventType("matching/match-job.requested", {
  schema: z.object({ matchJobId: z.number().int().positive(), accountId: z.string().min(1) }),
});

/** QR sorting of a job's photos (inngest/qr-sort.ts): free, nothing to refund. */
export const qrSortRequested = eventType("qr-sort/task.requested", {
  schema: z.object({ taskId: z.string().startsWith("task_"), accountId: z.string().min(1) }),
});

/** Parent galleries (inngest/gallery-previews.ts): render a published job's watermarked previews; free. */
export const galleryPreviewsRequested = eventType("galleries/previews.requested", {
  schema: z.object({ accountId: z.string().min(1), jobId: z.number().int().positive() }),
});

/**
 * A child's gallery was opened with its code (inngest/gallery-faces.ts): find
 * the face of each of its photos that has none yet, so the cart's crop starts
 * from it without the parent waiting for the engine; only when the job's price
 * sheet sells a print (the job looks). Free.
 */
export const galleryFacesRequested = eventType("galleries/faces.requested", {
  schema: z.object({ accountId: z.string().min(1), jobId: z.number().int().positive(), galleryId: z.string().startsWith("gal_") }),
});

/** Production (inngest/production.ts): render and check a lab batch's print files; free (the sale paid for it). */
export const productionBatchRequested = eventType("production/batch.requested", {
  schema: z.object({ batchId: z.string().startsWith("lbt_"), accountId: z.string().min(1) }),
});

/** One attempt of a webhook delivery (inngest/webhook-delivery.ts). */
export const webhookDeliveryAttempt = eventType("webhooks/delivery.attempt", {
  schema: z.object({ deliveryId: z.string().startsWith("msg_"), accountId: z.string().min(1), attempt: z.number().int().min(1) }),
});

/** Auto top-up (inngest/auto-top-up.ts): charge the saved card for the attempt a debit claimed. */
export const autoTopUpRequested = eventType("billing/auto-top-up.requested", {
  schema: z.object({ attemptId: z.string().startsWith("atu_"), accountId: z.string().min(1) }),
});

/** One attempt to send a queued email (inngest/mail-delivery.ts, lib/domain/mail/deliver-mail.ts). */
export const mailDeliveryAttempt = eventType("mail/message.attempt", {
  schema: z.object({ messageId: z.string().startsWith("mail_"), attempt: z.number().int().min(1) }),
});

/** The catalogue startJob() validates against. Add new events here. */
export const jobEvents = [bgRemoveRequested, faceCropRequested, ...aiFixJobEvents, referencesRequested, matchJobRequested, qrSortRequested, galleryPreviewsRequested, galleryFacesRequested, productionBatchRequested, webhookDeliveryAttempt, autoTopUpRequested, mailDeliveryAttempt] as const;
