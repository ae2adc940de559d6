import { billedBatchColumns } from "./billed-batch";
import { index, integer, jsonb, pgTable, real, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { agencies, agencyJobs, jobFiles, subjects } from "./studio";

// AI Face Matching (contract 4.6). Embeddings are children's biometric data:
// several rows per subject, deleted with the subject, the agency, the consent switch,
// DELETE .../references and the retention sweep; never returned by the API.

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });
const accountId = () =>
  text("account_id")
    .notNull()
    .references(() => accounts.id, { onDelete: "cascade" });

export type StoredBox = { x: number; y: number; w: number; h: number };

/**
 * A reference portrait uploaded for a subject (up to 5 with the contract's
 * `reference_photo_url`), stored like job photos: the photo and a thumbnail.
 */
export const subjectPortraits = pgTable(
  "subject_portraits",
  {
    /** `por_...` */
    id: text("id").primaryKey(),
    accountId: accountId(),
    agencyId: integer("agency_id")
      .notNull()
      .references(() => agencies.id, { onDelete: "cascade" }),
    subjectId: text("subject_id")
      .notNull()
      .references(() => subjects.id, { onDelete: "cascade" }),
    filename: text("filename").notNull(),
    storageKey: text("storage_key").notNull(),
    thumbnailKey: text("thumbnail_key").notNull(),
    contentType: text("content_type").notNull(),
    size: integer("size").notNull(),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("subject_portraits_subject_idx").on(t.subjectId, t.createdAt), index("subject_portraits_agency_idx").on(t.agencyId)],
);

export type ReferenceSource = "portrait" | "confirmed_match";

/**
 * One reference embedding of a subject; a subject has several (its portraits, and
 * faces a reviewer confirmed as that subject), and a face scores as the best of them.
 */
export const faceReferences = pgTable(
  "face_references",
  {
    /** `fref_...` */
    id: text("id").primaryKey(),
    subjectId: text("subject_id")
      .notNull()
      .references(() => subjects.id, { onDelete: "cascade" }),
    accountId: accountId(),
    agencyId: integer("agency_id")
      .notNull()
      .references(() => agencies.id, { onDelete: "cascade" }),
    /** portrait: the subject's reference_photo_url (portrait_id null) or an uploaded portrait; confirmed_match: a reviewed face. */
    source: text("source").$type<ReferenceSource>().notNull().default("portrait"),
    portraitId: text("portrait_id").references(() => subjectPortraits.id, { onDelete: "cascade" }),
    /** The reviewed face it was taken from; null once that match job is deleted (the reference stays until removed). */
    matchFaceId: text("match_face_id").references(() => matchFaces.id, { onDelete: "set null" }),
    embedding: real("embedding").array().notNull(),
    /** The engine that made it: a new model re-embeds. */
    model: text("model").notNull(),
    /** The photo it was made from (storage key or URL): a changed photo re-embeds. */
    photoSource: text("photo_source").notNull(),
    faceBox: jsonb("face_box").$type<StoredBox>().notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("face_references_agency_idx").on(t.agencyId), index("face_references_subject_idx").on(t.subjectId, t.source, t.createdAt)],
);

/** A reference build that ran as a job (20 subjects or more), pollable as a studio task. */
export const referenceBuilds = pgTable(
  "reference_builds",
  {
    /** `task_...` */
    id: text("id").primaryKey(),
    accountId: accountId(),
    agencyId: integer("agency_id")
      .notNull()
      .references(() => agencies.id, { onDelete: "cascade" }),
    status: text("status").$type<"queued" | "running" | "completed" | "failed">().notNull(),
    subjectsTotal: integer("subjects_total").notNull(),
    processed: integer("processed").notNull().default(0),
    embeddingsCreated: integer("embeddings_created").notNull().default(0),
    report: jsonb("report").$type<ReferenceProblem[]>().notNull().default([]),
    errorMessage: text("error_message"),
    createdAt: ts("created_at").notNull().defaultNow(),
    completedAt: ts("completed_at"),
  },
  (t) => [index("reference_builds_account_idx").on(t.accountId, t.createdAt)],
);

export type ReferenceProblem = { student_id: string; subject_id: string; /** The uploaded portrait at fault; null for the reference_photo_url. */ portrait_id?: string | null; reason: string; message: string };

/** A match job (contract 2.9): integer id, one debit for every accepted file. */
export const matchJobs = pgTable(
  "match_jobs",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    /** `task_...`, pollable at GET /v1/services/studio/jobs/{taskId}. */
    taskId: text("task_id").notNull(),
    accountId: accountId(),
    agencyId: integer("agency_id")
      .notNull()
      .references(() => agencies.id, { onDelete: "cascade" }),
    jobId: integer("job_id").references(() => agencyJobs.id, { onDelete: "set null" }),
    threshold: real("threshold").notNull(),
    ...billedBatchColumns(),
  },
  (t) => [uniqueIndex("match_jobs_task_key").on(t.taskId), index("match_jobs_account_idx").on(t.accountId, t.createdAt), index("match_jobs_status_idx").on(t.status)],
);

/** One photo of a match job. */
export const matchFiles = pgTable(
  "match_files",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    matchJobId: integer("match_job_id")
      .notNull()
      .references(() => matchJobs.id, { onDelete: "cascade" }),
    accountId: text("account_id").notNull(),
    /** The job file; null once that photo is deleted (the result stays with its filename). */
    fileId: integer("file_id").references(() => jobFiles.id, { onDelete: "set null" }),
    filename: text("filename").notNull(),
    position: integer("position").notNull(),
    status: text("status").$type<"pending" | "completed" | "failed">().notNull().default("pending"),
    errorCode: text("error_code"),
    errorMessage: text("error_message"),
    width: integer("width"),
    height: integer("height"),
    /** Its best face's effective decision (null while pending, and for a failed file). */
    decision: text("decision").$type<"matched" | "needs_review" | "unmatched">(),
    completedAt: ts("completed_at"),
  },
  (t) => [index("match_files_job_idx").on(t.matchJobId, t.position), index("match_files_decision_idx").on(t.matchJobId, t.decision), index("match_files_file_idx").on(t.fileId)],
);

/** A face found in a match job's photo, the engine's proposal and the photographer's decision. */
export const matchFaces = pgTable(
  "match_faces",
  {
    /** `mfc_...` */
    id: text("id").primaryKey(),
    matchFileId: integer("match_file_id")
      .notNull()
      .references(() => matchFiles.id, { onDelete: "cascade" }),
    matchJobId: integer("match_job_id")
      .notNull()
      .references(() => matchJobs.id, { onDelete: "cascade" }),
    accountId: text("account_id").notNull(),
    faceIndex: integer("face_index").notNull(),
    faceBox: jsonb("face_box").$type<StoredBox>().notNull(),
    subjectId: text("subject_id").references(() => subjects.id, { onDelete: "set null" }),
    score: real("score"),
    runnerUpSubjectId: text("runner_up_subject_id").references(() => subjects.id, { onDelete: "set null" }),
    runnerUpScore: real("runner_up_score"),
    /** The engine's decision: matched, needs_review, unmatched. */
    engineDecision: text("engine_decision").$type<"matched" | "needs_review" | "unmatched">().notNull(),
    /** Why the engine sent it to review: below_threshold, large_roster, two_candidates_close, same_child_twice, small_face, blurred_face, turned_away, face_hidden. */
    reviewReason: text("review_reason"),
    /** The photographer's: accepted (the proposed subject), assigned (another subject, in final_subject_id), nobody, rejected ("not this person": final_subject_id is the next candidate awaiting an accept, or null); null until reviewed. */
    review: text("review").$type<"accepted" | "assigned" | "nobody" | "rejected">(),
    reviewedAt: ts("reviewed_at"),
    /** The effective outcome after review, kept in step so counts and filters are plain queries. */
    decision: text("decision").$type<"matched" | "needs_review" | "unmatched">().notNull(),
    finalSubjectId: text("final_subject_id").references(() => subjects.id, { onDelete: "set null" }),
    /**
     * The face's embedding, kept only until the job groups its faces (then null):
     * grouping needs every face of the job at once. Cleared with the agency's
     * other embeddings (consent switched off, the retention sweep).
     */
    embedding: real("embedding").array(),
    /** `fgr_...`: the face's group within its job (faces that look like one person); null until grouped. */
    faceGroup: text("face_group"),
  },
  (t) => [index("match_faces_file_idx").on(t.matchFileId, t.faceIndex), index("match_faces_job_idx").on(t.matchJobId, t.decision), index("match_faces_subject_idx").on(t.finalSubjectId), index("match_faces_group_idx").on(t.matchJobId, t.faceGroup)],
);
