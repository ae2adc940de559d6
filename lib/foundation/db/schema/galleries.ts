import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { agencyJobs, jobFiles, subjects } from "./studio";

// Parent galleries (issue 35): publishing a sorted studio job makes one private
// gallery per photographed subject, plus an optional group gallery of the job
// that every code of the job opens. A parent exchanges the subject's access code
// for a gallery token (lib/services/galleries/parent-token.ts).

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });
const accountId = () =>
  text("account_id")
    .notNull()
    .references(() => accounts.id, { onDelete: "cascade" });

export type GalleryStatus = "draft" | "published" | "closed";
export type GalleryKind = "subject" | "group";
/** How a photo came into a subject's gallery: the QR sort (cards, or a photographer filing a frame by hand) or face matching. */
export type GalleryPhotoSource = "qr_sort" | "face_match" | "group";

export const galleries = pgTable(
  "galleries",
  {
    /** `gal_...` */
    id: text("id").primaryKey(),
    accountId: accountId(),
    jobId: integer("job_id")
      .notNull()
      .references(() => agencyJobs.id, { onDelete: "cascade" }),
    kind: text("kind").$type<GalleryKind>().notNull(),
    /** The child whose gallery it is; null for the job's group gallery. */
    subjectId: text("subject_id").references(() => subjects.id, { onDelete: "cascade" }),
    status: text("status").$type<GalleryStatus>().notNull().default("draft"),
    /** After it, the gallery answers as closed (parents cannot open it); reopen sets a new one. */
    expiresAt: ts("expires_at"),
    publishedAt: ts("published_at"),
    closedAt: ts("closed_at"),
    /** When the reminder before closing went to the parent (lib/services/orders/closing-reminders.ts): once per gallery. */
    remindedAt: ts("reminded_at"),
    /**
     * Until when the parent may pick the child's yearbook pose (yearbook-pose.ts), the same on
     * every child gallery of the job (set at publish); null: the job offers no choice.
     */
    yearbookDeadline: ts("yearbook_deadline"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("galleries_job_subject_key").on(t.jobId, t.subjectId),
    // One group gallery per job (subject_id null is not caught by the index above).
    uniqueIndex("galleries_job_group_key").on(t.jobId).where(sql`${t.kind} = 'group'`),
    index("galleries_account_idx").on(t.accountId, t.jobId),
  ],
);

/**
 * One code per subject of a job. The code itself is never stored in clear:
 * `lookup` is an HMAC of it under a server key (what a parent's code is found
 * by), `sealed` the code encrypted (AES-256-GCM) so the studio can print and
 * list it again. Kept across republishing, so cards already printed stay valid.
 */
export const galleryAccessCodes = pgTable(
  "gallery_access_codes",
  {
    /** `gac_...` */
    id: text("id").primaryKey(),
    accountId: accountId(),
    jobId: integer("job_id")
      .notNull()
      .references(() => agencyJobs.id, { onDelete: "cascade" }),
    subjectId: text("subject_id")
      .notNull()
      .references(() => subjects.id, { onDelete: "cascade" }),
    lookup: text("lookup").notNull(),
    sealed: text("sealed").notNull(),
    /**
     * How many times the code was e-mailed to the parent (lib/services/galleries/code-mail.ts):
     * the next message's outbox key is made from it, so a publish or a request repeated
     * sends nothing more, and only a deliberate re-send moves it.
     */
    mailSends: integer("mail_sends").notNull().default(0),
    /** The address it was last e-mailed to, and when (the job page's sent / not sent). */
    mailedTo: text("mailed_to"),
    mailedAt: ts("mailed_at"),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("gallery_access_codes_lookup_key").on(t.lookup), uniqueIndex("gallery_access_codes_job_subject_key").on(t.jobId, t.subjectId)],
);

/** A photo of a gallery: the job file it shows (never served) and its watermarked preview (served). */
export const galleryPhotos = pgTable(
  "gallery_photos",
  {
    /** `gph_...`: the photo id parents and orders name. */
    id: text("id").primaryKey(),
    galleryId: text("gallery_id")
      .notNull()
      .references(() => galleries.id, { onDelete: "cascade" }),
    accountId: accountId(),
    jobFileId: integer("job_file_id")
      .notNull()
      .references(() => jobFiles.id, { onDelete: "cascade" }),
    source: text("source").$type<GalleryPhotoSource>().notNull(),
    /** Capture order within the gallery (the sort's sequence; face-matched photos after). */
    position: integer("position").notNull(),
    /** The watermarked JPEG (at most PREVIEW_MAX_PX on its long side); null until the preview job renders it. */
    previewKey: text("preview_key"),
    previewWidth: integer("preview_width"),
    previewHeight: integer("preview_height"),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("gallery_photos_gallery_file_key").on(t.galleryId, t.jobFileId), index("gallery_photos_gallery_idx").on(t.galleryId, t.position), index("gallery_photos_file_idx").on(t.jobFileId)],
);

/** A parent's favourites, per child (the code's subject): both parents of a child see the same list. */
export const galleryFavourites = pgTable(
  "gallery_favourites",
  {
    subjectId: text("subject_id")
      .notNull()
      .references(() => subjects.id, { onDelete: "cascade" }),
    photoId: text("photo_id")
      .notNull()
      .references(() => galleryPhotos.id, { onDelete: "cascade" }),
    accountId: accountId(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.subjectId, t.photoId] }), index("gallery_favourites_photo_idx").on(t.photoId)],
);

/**
 * An address a parent holding the child's code gave for the reminder before the
 * child's gallery closes (favourites carry no address; the roster's is the
 * subject's `parent_email`). Used for that one reminder and deleted once it is
 * queued, or when the gallery closes without one.
 */
export const galleryReminderEmails = pgTable(
  "gallery_reminder_emails",
  {
    jobId: integer("job_id")
      .notNull()
      .references(() => agencyJobs.id, { onDelete: "cascade" }),
    subjectId: text("subject_id")
      .notNull()
      .references(() => subjects.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    accountId: accountId(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.subjectId, t.email] })],
);

/**
 * The photo a parent picked as the child's yearbook pose for a job: what the
 * job's PSPA export uses for that child (lib/services/qr-sort/pspa.ts).
 */
export const yearbookPoses = pgTable(
  "yearbook_poses",
  {
    jobId: integer("job_id")
      .notNull()
      .references(() => agencyJobs.id, { onDelete: "cascade" }),
    subjectId: text("subject_id")
      .notNull()
      .references(() => subjects.id, { onDelete: "cascade" }),
    accountId: accountId(),
    photoId: text("photo_id")
      .notNull()
      .references(() => galleryPhotos.id, { onDelete: "cascade" }),
    jobFileId: integer("job_file_id")
      .notNull()
      .references(() => jobFiles.id, { onDelete: "cascade" }),
    chosenAt: ts("chosen_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.subjectId] })],
);


/** A studio's gallery settings; a studio without a row has the defaults. */
export const gallerySettings = pgTable("gallery_settings", {
  accountId: text("account_id")
    .primaryKey()
    .references(() => accounts.id, { onDelete: "cascade" }),
  /** Days a published gallery stays open. */
  expiryDays: integer("expiry_days").notNull().default(30),
  /** Drawn across every preview; null: the studio's name. */
  watermarkText: text("watermark_text"),
  /** A PNG logo composited instead of the text, when set. */
  watermarkLogoKey: text("watermark_logo_key"),
  groupGallery: boolean("group_gallery").notNull().default(true),
  /** Whether digital downloads are sold (read by orders). */
  downloadsEnabled: boolean("downloads_enabled").notNull().default(false),
  /** Days before a gallery closes that parents with favourites and no paid order are reminded; 0: no reminder. */
  reminderDays: integer("reminder_days").notNull().default(3),
  /** Days after an order is placed that its photo files are removed (lib/composition/maintenance/order-photos.ts); the order stays. */
  orderPhotoRetentionDays: integer("order_photo_retention_days").notNull().default(365),
  /** Moves with each watermark change, so previews are re-rendered and cached copies never reused. */
  watermarkVersion: integer("watermark_version").notNull().default(1),
  updatedAt: ts("updated_at").notNull().defaultNow(),
});
