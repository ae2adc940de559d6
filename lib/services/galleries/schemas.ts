import { z } from "zod";
import { pageQuery } from "@/lib/foundation/http/pagination";
import { intId } from "@/lib/services/agencies/schemas";

// Parent side (/v1/parent/...).

export const accessBody = z.strictObject({
  code: z.string({ error: "code is required: the access code printed on the child's card or flyer." }).trim().min(1, "code is required.").max(64, "code is at most 64 characters."),
});

export const parentGallery = z.object({
  id: z.string(),
  kind: z.enum(["subject", "group"]),
  /** The child's name, or the job's name for the group gallery. */
  title: z.string(),
  studio_name: z.string(),
  photo_count: z.number().int(),
  expires_at: z.string().nullable(),
});
export type ParentGallery = z.output<typeof parentGallery>;

export const accessResponse = z.object({
  token: z.string(),
  token_type: z.literal("Bearer"),
  expires_at: z.string(),
  galleries: z.array(parentGallery),
});

export const galleryIdParams = z.object({ galleryId: z.string().min(1).max(64) });
export const photoIdParams = z.object({ photoId: z.string().min(1).max(64) });
export const parentPhotosQuery = pageQuery;

export const parentPhoto = z.object({
  id: z.string(),
  gallery_id: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  /** The original's pixel size, upright (for a print's ppi); the original itself is never served to a parent. */
  original_width: z.number().int(),
  original_height: z.number().int(),
  /** Watermarked preview, at most 1,200 px: a signed URL scoped to this code's galleries, valid a few hours. */
  preview_url: z.string(),
  favourite: z.boolean(),
});
export type ParentPhoto = z.output<typeof parentPhoto>;

export const favouriteResponse = z.object({ photo_id: z.string(), favourite: z.boolean() });

export const yearbookPoseBody = z.strictObject({
  photo_id: z.string({ error: "photo_id is required: a photo of the child's own gallery." }).min(1).max(64),
});

export const yearbookPoseResponse = z.object({
  /** The photo chosen as the child's yearbook pose; null: none yet (the studio's PSPA export then takes the first portrait). */
  photo_id: z.string().nullable(),
  /** Until when it can be chosen or changed; null: the studio takes no choice for this job. */
  deadline: z.string().nullable(),
  /** Whether it can still be chosen or changed now. */
  open: z.boolean(),
});

// Studio side (/v1/services/studio/...).

export const jobGalleriesParams = z.object({ agencyId: intId, jobId: intId });

export const publishBody = z.strictObject({
  /** Job files for the group gallery (class or team photos), added to what it holds. */
  group_file_ids: z.array(z.number().int().positive(), { error: "group_file_ids must be a list of file ids of this job." }).max(500).optional(),
  /** Days the galleries stay open from now; the studio's setting when left out. */
  expiry_days: z.number().int().min(1).max(365).optional(),
  /** true: make the galleries and their codes (to print them) without opening them; a gallery already open stays open. */
  draft: z.boolean().optional(),
  /** Until when parents may pick their child's yearbook pose (used by the PSPA export); null: no choice. Left out: unchanged. */
  yearbook_deadline: z.iso.datetime({ offset: true, error: "yearbook_deadline must be an ISO 8601 date-time, e.g. 2026-12-15T23:59:00Z." }).nullable().optional(),
});
export type PublishBody = z.output<typeof publishBody>;

export const reopenBody = z.strictObject({
  expiry_days: z.number().int().min(1).max(365).optional(),
});

export const studioGallery = z.object({
  id: z.string(),
  kind: z.enum(["subject", "group"]),
  subject_id: z.string().nullable(),
  student_id: z.string().nullable(),
  name: z.string().nullable(),
  /** The child's access code (null for the group gallery, which every code of the job opens). */
  access_code: z.string().nullable(),
  status: z.enum(["draft", "published", "closed"]),
  expires_at: z.string().nullable(),
  published_at: z.string().nullable(),
  photo_count: z.number().int(),
  previews_ready: z.number().int(),
  /** The roster's parent address for the child (null: none, or the group gallery). */
  parent_email: z.string().nullable(),
  /** When the code was last e-mailed, to which address, and how many times in all (0: never). */
  code_emailed_at: z.string().nullable(),
  code_emailed_to: z.string().nullable(),
  code_emails: z.number().int(),
  /** Until when the parent may pick the yearbook pose (null: no choice), and whether one is chosen. */
  yearbook_deadline: z.string().nullable(),
  yearbook_pose_chosen: z.boolean(),
});

export const publishResponse = z.object({
  job_id: z.number().int(),
  galleries: z.number().int(),
  photos_added: z.number().int(),
  previews_pending: z.number().int(),
  gallery_url: z.string(),
  /** Codes e-mailed by this publish to parent addresses on the roster (each code once; POST .../send-codes sends again). */
  codes_emailed: z.number().int(),
});

export const sendCodesBody = z.strictObject({
  /** true: e-mail the codes again, also to parents who already had theirs; false (default): only codes never e-mailed. */
  resend: z.boolean({ error: "resend must be true or false." }).optional(),
  /** Only these children (subject ids); every child of the job when left out. */
  subject_ids: z.array(z.string().min(1).max(64), { error: "subject_ids must be a list of subject ids." }).min(1).max(2000).optional(),
});
export type SendCodesBody = z.output<typeof sendCodesBody>;

export const sendCodesResponse = z.object({
  job_id: z.number().int(),
  /** Messages queued now (each sent at once or by the mail job, retried while the mail server is away). */
  emailed: z.number().int(),
  /** Children whose code had already been e-mailed (send with resend: true to mail it again). */
  already_sent: z.number().int(),
  /** Children without a parent_email on the roster. */
  without_email: z.number().int(),
  /** Children whose gallery is a draft, closed or past its expiry: not mailed. */
  not_open: z.number().int(),
});

export const settingsBody = z.strictObject({
  expiry_days: z.number().int().min(1).max(365).optional(),
  watermark_text: z.string().trim().min(1).max(60).nullable().optional(),
  /** A signed upload URL of ours (POST /v1/uploads) of a PNG or JPEG logo, or null to draw the text. */
  watermark_logo_url: z.string().url().max(4096).nullable().optional(),
  group_gallery: z.boolean().optional(),
  downloads_enabled: z.boolean().optional(),
  /** Days before a gallery closes that a parent with favourites and no paid order is reminded by e-mail; 0 turns the reminder off. */
  reminder_days: z.number().int().min(0).max(30).optional(),
  /** Days after an order is placed that its photo files (print files, downloads) are removed; the order and its money stay. */
  order_photo_retention_days: z.number().int().min(30).max(3650).optional(),
});
export type SettingsBody = z.output<typeof settingsBody>;

export const settingsResponse = z.object({
  expiry_days: z.number().int(),
  watermark_text: z.string().nullable(),
  watermark_logo: z.boolean(),
  group_gallery: z.boolean(),
  downloads_enabled: z.boolean(),
  reminder_days: z.number().int(),
  order_photo_retention_days: z.number().int(),
});

export const reminderEmailBody = z.strictObject({
  email: z.preprocess((v) => (typeof v === "string" ? v.trim().toLowerCase() : v), z.email({ error: "Give an e-mail address such as parent@example.com." }).max(254)),
});

export const reminderEmailResponse = z.object({
  email: z.string(),
  /** When the child's gallery closes; null while it has no closing date (no reminder then). */
  closes_at: z.string().nullable(),
  /** When the reminder goes out: reminder_days before closing; null when there is none to send (no closing date, or the studio turned reminders off). */
  remind_at: z.string().nullable(),
});
