import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { agencies, agencyJobs, jobFiles, subjects } from "./studio";

// QR sorting (issue 21): the photographer shoots a child's Bulk QR card, then
// the child; the frames are read in capture order and every frame after a card
// is filed under that card's subject. Free: it is what the paid cards are for.

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

export type QrSortRole = "card" | "subject" | "before_first_card" | "unknown_card";
export type QrSortWarning = { code: string; message: string; student_id?: string; subject_id?: string | null; file_ids?: number[] };

/** One sort of a job's photos, pollable as a studio task (type qr_sort). */
export const qrSortTasks = pgTable(
  "qr_sort_tasks",
  {
    /** `task_...` */
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    agencyId: integer("agency_id")
      .notNull()
      .references(() => agencies.id, { onDelete: "cascade" }),
    jobId: integer("job_id")
      .notNull()
      .references(() => agencyJobs.id, { onDelete: "cascade" }),
    status: text("status").$type<"queued" | "running" | "completed" | "failed">().notNull(),
    filesTotal: integer("files_total").notNull(),
    processed: integer("processed").notNull().default(0),
    /** What the photographer should know about the whole sort: cards without portraits, a card shot twice, frames without a capture time. */
    warnings: jsonb("warnings").$type<QrSortWarning[]>().notNull().default([]),
    errorMessage: text("error_message"),
    createdAt: ts("created_at").notNull().defaultNow(),
    completedAt: ts("completed_at"),
  },
  (t) => [index("qr_sort_tasks_account_idx").on(t.accountId, t.createdAt), index("qr_sort_tasks_job_idx").on(t.jobId)],
);

/** One photo of a sort: what was read in it, then where the rules filed it. */
export const qrSortFrames = pgTable(
  "qr_sort_frames",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    taskId: text("task_id")
      .notNull()
      .references(() => qrSortTasks.id, { onDelete: "cascade" }),
    accountId: text("account_id").notNull(),
    /** The job file; null once that photo is deleted (the result stays with its filename). */
    fileId: integer("file_id").references(() => jobFiles.id, { onDelete: "set null" }),
    filename: text("filename").notNull(),
    /** read: codes and time are known; failed: the file could not be decoded. */
    status: text("status").$type<"pending" | "read" | "failed">().notNull().default("pending"),
    codes: jsonb("codes").$type<string[]>().notNull().default([]),
    capturedAt: ts("captured_at"),
    /** Place in capture order (0-based), set when the sort ends. */
    sequence: integer("sequence"),
    role: text("role").$type<QrSortRole>(),
    subjectId: text("subject_id").references(() => subjects.id, { onDelete: "set null" }),
    /** The card's student id for card and unknown_card frames, else the subject's. */
    studentId: text("student_id"),
    cardPayload: text("card_payload"),
    review: jsonb("review").$type<string[]>().notNull().default([]),
    /**
     * The subject the frame's most prominent face clearly matches, when the agency
     * has face matching on and references built (read with the cards): a frame
     * filed under someone else goes to review as face_disagrees.
     */
    faceSubjectId: text("face_subject_id").references(() => subjects.id, { onDelete: "set null" }),
    /** Set by PATCH: the photographer filed it by hand. */
    manual: boolean("manual").notNull().default(false),
  },
  (t) => [uniqueIndex("qr_sort_frames_task_file_idx").on(t.taskId, t.fileId), index("qr_sort_frames_task_seq_idx").on(t.taskId, t.sequence), index("qr_sort_frames_subject_idx").on(t.subjectId)],
);
