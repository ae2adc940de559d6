import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { billedBatchColumns } from "./billed-batch";

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/**
 * A Face Crop batch (contract 2.7, "studio batch task"): one per request, whether
 * it was answered at once (`mode` sync) or ran as a job (`mode` async). One debit
 * pays for every accepted file; the files that fail are refunded together by one
 * refund row referencing that debit (the ledger allows one refund per debit).
 */
export const faceCropTasks = pgTable(
  "face_crop_tasks",
  {
    /** `task_...` */
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    mode: text("mode").$type<"sync" | "async">().notNull(),
    icpType: text("icp_type").notNull(),
    enhance: boolean("enhance").notNull(),
    ...billedBatchColumns(),
  },
  (t) => [index("face_crop_tasks_account_created_idx").on(t.accountId, t.createdAt), index("face_crop_tasks_status_idx").on(t.status, t.mode)],
);

export type CropBox = { x: number; y: number; w: number; h: number; angle: number };
export type StoredLandmarks = {
  left_eye: { x: number; y: number };
  right_eye: { x: number; y: number };
  chin: { x: number; y: number };
  crown: { x: number; y: number };
  /** Where the crown came from (absent on results made before it was measured): the person matte or the landmark estimate. */
  crown_source?: "matte" | "landmarks";
  /** Which model placed the eyes and chin (absent on results made before the jaw net): face-api's 68-point net or the face mesh. */
  landmark_model?: "face-api-landmark68" | "mesh";
};

/** One file of a Face Crop task and its result or per-file error. */
export const faceCropItems = pgTable(
  "face_crop_items",
  {
    /** `fcr_...` */
    id: text("id").primaryKey(),
    taskId: text("task_id")
      .notNull()
      .references(() => faceCropTasks.id, { onDelete: "cascade" }),
    accountId: text("account_id").notNull(),
    position: integer("position").notNull(),
    filename: text("filename").notNull(),
    /** The caller's URL (URL form) or null (upload form). */
    sourceUrl: text("source_url"),
    /** Our copy of the source once fetched or uploaded. */
    sourceKey: text("source_key"),
    /** false for a file refused at acceptance (never debited, so never refunded). */
    charged: boolean("charged").notNull(),
    status: text("status").$type<"pending" | "completed" | "failed">().notNull(),
    errorCode: text("error_code"),
    errorMessage: text("error_message"),
    /** Upright size of the source. */
    width: integer("width"),
    height: integer("height"),
    faceBox: jsonb("face_box").$type<{ x: number; y: number; w: number; h: number }>(),
    landmarks: jsonb("landmarks").$type<StoredLandmarks>(),
    facesFound: integer("faces_found"),
    cropBox: jsonb("crop_box").$type<CropBox>(),
    edge: text("edge"),
    /** Fill added outside the photo, per side, in output pixels (null on results made before padding existed). */
    padding: jsonb("padding").$type<{ top: number; right: number; bottom: number; left: number }>(),
    manual: boolean("manual").notNull().default(false),
    enhancement: text("enhancement"),
    /** Bumped by every re-crop, so a new render gets new storage keys. */
    version: integer("version").notNull().default(0),
    originalKey: text("original_key"),
    mediumKey: text("medium_key"),
    outputWidth: integer("output_width"),
    outputHeight: integer("output_height"),
    completedAt: ts("completed_at"),
  },
  (t) => [uniqueIndex("face_crop_items_task_position_idx").on(t.taskId, t.position), index("face_crop_items_account_idx").on(t.accountId)],
);
