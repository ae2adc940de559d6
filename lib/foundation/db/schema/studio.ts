import { boolean, index, integer, pgEnum, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { AGENCY_JOB_STATUSES, AGENCY_TYPES, ICP_TYPES } from "./studio-values";

// Studio data: agencies (schools, clubs, companies) own a roster of subjects and
// jobs (photo shoots); jobs hold the photos. Face matching (a later issue) builds
// embeddings from subjects' reference photos and matches job files against them,
// so both keep what it needs: the reference photo, and each file's storage key
// and pixel size.

export const agencyTypeEnum = pgEnum("agency_type", AGENCY_TYPES);
export const icpTypeEnum = pgEnum("icp_type", ICP_TYPES);
export const agencyJobStatusEnum = pgEnum("agency_job_status", AGENCY_JOB_STATUSES);
export const qrLayoutEnum = pgEnum("qr_layout", ["single", "4up", "9up"]);
export const qrGenerationStatusEnum = pgEnum("qr_generation_status", ["processing", "completed", "failed"]);

const createdAt = () => timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow();
const accountId = () =>
  text("account_id")
    .notNull()
    .references(() => accounts.id, { onDelete: "cascade" });

/** Integer ids (the contract's), from one sequence across accounts; every query is still scoped by account_id. */
export const agencies = pgTable(
  "agencies",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    accountId: accountId(),
    name: text("name").notNull(),
    agencyType: agencyTypeEnum("agency_type").notNull(),
    /**
     * Consent switch for face matching: off for a new agency (a person turns it on and
     * confirms the agency has consent); off deletes the agency's embeddings and refuses matching (403).
     */
    faceMatchingEnabled: boolean("face_matching_enabled").notNull().default(false),
    /** Who confirmed consent when matching was last turned on (the account's email and how it signed in), and when. */
    faceMatchingConsentBy: text("face_matching_consent_by"),
    faceMatchingConsentAt: timestamp("face_matching_consent_at", { withTimezone: true, mode: "date" }),
    /** Last reference build or match job: embeddings unused for the retention period are deleted. */
    matchingUsedAt: timestamp("matching_used_at", { withTimezone: true, mode: "date" }),
    /** A face a reviewer confirms as a subject becomes one of its references (at most 5 per subject, oldest replaced). */
    learnFromConfirmedMatches: boolean("learn_from_confirmed_matches").notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [index("agencies_account_idx").on(t.accountId, t.id)],
);

export const agencyJobs = pgTable(
  "agency_jobs",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    accountId: accountId(),
    agencyId: integer("agency_id")
      .notNull()
      .references(() => agencies.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    status: agencyJobStatusEnum("status").notNull().default("draft"),
    icpType: icpTypeEnum("icp_type").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("agency_jobs_agency_idx").on(t.agencyId, t.id), index("agency_jobs_account_idx").on(t.accountId)],
);

/** The roster: one row per person an agency photographs. */
export const subjects = pgTable(
  "subjects",
  {
    id: text("id").primaryKey(),
    accountId: accountId(),
    agencyId: integer("agency_id")
      .notNull()
      .references(() => agencies.id, { onDelete: "cascade" }),
    studentId: text("student_id").notNull(),
    name: text("name").notNull(),
    className: text("class_name"),
    /** What a yearbook's PSPA index carries for each person (lib/services/qr-sort/pspa.ts); all optional. */
    grade: text("grade"),
    homeroom: text("homeroom"),
    teacher: text("teacher"),
    period: text("period"),
    track: text("track"),
    department: text("department"),
    title: text("title"),
    /** Where the child's gallery code is e-mailed when the job's galleries are published (lib/services/galleries/code-mail.ts); optional. */
    parentEmail: text("parent_email"),
    /** As the caller gave it; matching builds its embedding from this photo. */
    referencePhotoUrl: text("reference_photo_url"),
    /**
     * When the URL is one of our own signed upload URLs for this account: the
     * storage key behind it, so the photo stays readable after the URL expires.
     */
    referencePhotoKey: text("reference_photo_key"),
    /** No embedding is kept for this subject and it is never a match (per-subject opt-out). */
    excludeFromMatching: boolean("exclude_from_matching").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("subjects_agency_student_key").on(t.agencyId, t.studentId), index("subjects_account_idx").on(t.accountId)],
);

/** The photos of a job, stored once in object storage, with a small JPEG thumbnail beside them. */
export const jobFiles = pgTable(
  "job_files",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    accountId: accountId(),
    jobId: integer("job_id")
      .notNull()
      .references(() => agencyJobs.id, { onDelete: "cascade" }),
    filename: text("filename").notNull(),
    storageKey: text("storage_key").notNull(),
    thumbnailKey: text("thumbnail_key").notNull(),
    contentType: text("content_type").notNull(),
    size: integer("size").notNull(),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    /** The URL it was fetched from, when added by URL. */
    sourceUrl: text("source_url"),
    /** SHA-256 of the bytes (hex), to warn about the same photo uploaded twice; null for files stored before it was kept. */
    sha256: text("sha256"),
    createdAt: createdAt(),
  },
  (t) => [index("job_files_job_idx").on(t.jobId, t.id), index("job_files_account_idx").on(t.accountId), index("job_files_job_sha256_idx").on(t.jobId, t.sha256)],
);

/** One Bulk QR run: the record its debit references, and where its PDF is. */
export const qrGenerations = pgTable(
  "qr_generations",
  {
    id: text("id").primaryKey(),
    accountId: accountId(),
    /** The caller's own job reference (contract 4.5), also printed in every QR payload. */
    jobRef: text("job_ref").notNull(),
    layout: qrLayoutEnum("layout").notNull(),
    pageSize: text("page_size").notNull(),
    totalSubjects: integer("total_subjects").notNull(),
    pages: integer("pages"),
    status: qrGenerationStatusEnum("status").notNull().default("processing"),
    storageKey: text("storage_key"),
    bytes: integer("bytes"),
    walletTransactionId: text("wallet_transaction_id").notNull(),
    errorMessage: text("error_message"),
    createdAt: createdAt(),
    completedAt: timestamp("completed_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [index("qr_generations_account_idx").on(t.accountId, t.createdAt)],
);
