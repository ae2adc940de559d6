import { sql } from "drizzle-orm";
import { boolean, check, doublePrecision, index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { accountId, maybeStamp, stamp } from "./columns";
import { orderItems, orders } from "./orders";
import { jobFiles } from "./studio";

// Production: paid print items turned into the files a lab prints, checked, and
// sent in batches. One print file per printed product of an order line (a package
// line has one per print item of the package), so a file is the unit a lab prints.


/** held: every file of the batch is on hold; it waits for the studio's fixes and is ready with the first one that renders. */
export const LAB_BATCH_STATUSES = ["rendering", "ready", "held", "sent", "printed", "shipped", "failed"] as const;
export type LabBatchStatus = (typeof LAB_BATCH_STATUSES)[number];

/** A batch sent to the lab: its print files, ZIP and packing slips. */
export const labBatches = pgTable(
  "lab_batches",
  {
    id: text("id").primaryKey(),
    accountId: accountId(),
    /** direct: each order to its address; school: every order to the school in one parcel. */
    shipping: text("shipping").$type<"direct" | "school">().notNull(),
    jobId: integer("job_id"),
    /** The paid date the batch took (UTC day), when it was made per day. */
    paidOn: text("paid_on"),
    status: text("status").$type<LabBatchStatus>().notNull().default("rendering"),
    orderCount: integer("order_count").notNull().default(0),
    error: text("error"),
    createdAt: stamp("created_at"),
    readyAt: maybeStamp("ready_at"),
    sentAt: maybeStamp("sent_at"),
    printedAt: maybeStamp("printed_at"),
    shippedAt: maybeStamp("shipped_at"),
  },
  (t) => [
    index("lab_batches_account_created_idx").on(t.accountId, t.createdAt),
    check("lab_batches_status", sql`${t.status} IN ('rendering', 'ready', 'held', 'sent', 'printed', 'shipped', 'failed')`),
    check("lab_batches_shipping", sql`${t.shipping} IN ('direct', 'school')`),
  ],
);

/**
 * Why a file is held: its render failed Preflight, its photo or product is gone, the person
 * matte needs the studio's eye, the face found again on the file crosses the safe area, or
 * the studio's lab colour profile is missing from storage (upload it again: the files render then).
 */
export const HOLD_CODES = ["preflight", "missing", "matte_doubtful", "face_outside_safe_area", "lab_profile_missing"] as const;
export type HoldCode = (typeof HOLD_CODES)[number];

export const PRINT_FILE_STATUSES = ["pending", "rendered", "held"] as const;
export type PrintFileStatus = (typeof PRINT_FILE_STATUSES)[number];

/** One print-ready file: a product of an order line at its size, rendered once. */
export const printFiles = pgTable(
  "print_files",
  {
    id: text("id").primaryKey(),
    accountId: accountId(),
    orderId: text("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    orderItemId: text("order_item_id")
      .notNull()
      .references(() => orderItems.id, { onDelete: "cascade" }),
    /** The price-sheet item printed (a package line has one file per print item). */
    sheetItemId: text("sheet_item_id").notNull(),
    productId: text("product_id").notNull(),
    productSku: text("product_sku").notNull(),
    /** Trim size in inches as printed (turned to the crop's orientation). */
    widthIn: doublePrecision("width_in").notNull(),
    heightIn: doublePrecision("height_in").notNull(),
    quantity: integer("quantity").notNull(),
    batchId: text("batch_id").references(() => labBatches.id, { onDelete: "set null" }),
    status: text("status").$type<PrintFileStatus>().notNull().default("pending"),
    /** Why the file is held back from the lab (preflight's words). */
    holdReasons: jsonb("hold_reasons").$type<string[]>().notNull().default([]),
    fileKey: text("file_key"),
    thumbKey: text("thumb_key"),
    widthPx: integer("width_px"),
    heightPx: integer("height_px"),
    /** Pixels of the original per printed inch in the parent's crop. */
    sourcePpi: integer("source_ppi"),
    /** The studio background the child is composited onto (copied from the order line). */
    backgroundId: text("background_id"),
    /** Why the file is held, as a code pages and the fix route branch on (the reasons are the words). */
    holdCode: text("hold_code").$type<HoldCode>(),
    /** The studio's fix of a held file: another photo of the same child, and its crop (fractions), in place of the order line's. */
    photoId: text("photo_id"),
    crop: jsonb("crop").$type<{ x: number; y: number; width: number; height: number }>(),
    /** The studio looked at a doubtful matte and printed it anyway. */
    matteReleased: boolean("matte_released").notNull().default(false),
    renderedAt: maybeStamp("rendered_at"),
    createdAt: stamp("created_at"),
  },
  (t) => [
    uniqueIndex("print_files_item_key").on(t.orderItemId, t.sheetItemId),
    index("print_files_batch_idx").on(t.batchId),
    index("print_files_account_order_idx").on(t.accountId, t.orderId),
    check("print_files_status", sql`${t.status} IN ('pending', 'rendered', 'held')`),
  ],
);

/** A studio's lab: the manifest's column names as its lab's import expects them. */
export const productionSettings = pgTable("production_settings", {
  accountId: text("account_id")
    .primaryKey()
    .references(() => accounts.id, { onDelete: "cascade" }),
  manifestColumns: jsonb("manifest_columns").$type<Record<string, string>>().notNull().default({}),
  /** The lab's ICC profile (stored file), print files are converted into; null: sRGB. */
  labProfileKey: text("lab_profile_key"),
  /** The profile's own description ('desc' tag), its size in bytes and when it was uploaded. */
  labProfileDescription: text("lab_profile_description"),
  labProfileBytes: integer("lab_profile_bytes"),
  labProfileUploadedAt: maybeStamp("lab_profile_uploaded_at"),
  updatedAt: stamp("updated_at"),
});

/** A studio's background a child may be printed on: an uploaded picture or a solid colour. */
export const studioBackgrounds = pgTable(
  "studio_backgrounds",
  {
    id: text("id").primaryKey(),
    accountId: accountId(),
    name: text("name").notNull(),
    kind: text("kind").$type<"image" | "color">().notNull(),
    /** #rrggbb, for a colour. */
    color: text("color"),
    storageKey: text("storage_key"),
    thumbnailKey: text("thumbnail_key"),
    contentType: text("content_type"),
    width: integer("width"),
    height: integer("height"),
    createdAt: stamp("created_at"),
  },
  (t) => [
    index("studio_backgrounds_account_idx").on(t.accountId, t.createdAt),
    check("studio_backgrounds_kind", sql`(${t.kind} = 'color' AND ${t.color} IS NOT NULL) OR (${t.kind} = 'image' AND ${t.storageKey} IS NOT NULL)`),
  ],
);

/**
 * The background-removal engine's person matte of one photo, computed once and
 * reused by every print (and preview) of it: an 8-bit grey PNG, 255 the child.
 * `full` is at the original's upright size; `preview` at the gallery preview's.
 */
export const photoMattes = pgTable(
  "photo_mattes",
  {
    id: text("id").primaryKey(),
    accountId: accountId(),
    jobFileId: integer("job_file_id")
      .notNull()
      .references(() => jobFiles.id, { onDelete: "cascade" }),
    scale: text("scale").$type<"full" | "preview">().notNull(),
    storageKey: text("storage_key").notNull(),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    /** Why the matte is doubtful, in words (none: the studio need not look). */
    doubts: jsonb("doubts").$type<string[]>().notNull().default([]),
    createdAt: stamp("created_at"),
  },
  (t) => [uniqueIndex("photo_mattes_file_scale_key").on(t.jobFileId, t.scale), check("photo_mattes_scale", sql`${t.scale} IN ('full', 'preview')`)],
);

/**
 * What production made for a studio, one row per engine run, never updated or deleted with
 * what it made (a photo deleted later keeps its cut-outs in the month's usage): written by
 * the database itself for each person matte row inserted (trigger `photo_mattes_usage`,
 * migration 0043, so every path that stores a matte counts it once; its id follows the
 * matte's). `kind`: cutout; `scale`: full or preview; `job_file_id`: the photo, kept as a plain
 * number once the photo is gone.
 */
export const productionUsageEvents = pgTable(
  "production_usage_events",
  {
    id: text("id").primaryKey(),
    accountId: accountId(),
    kind: text("kind").$type<"cutout">().notNull(),
    scale: text("scale").$type<"full" | "preview">().notNull(),
    jobFileId: integer("job_file_id"),
    createdAt: stamp("created_at"),
  },
  (t) => [index("production_usage_events_account_idx").on(t.accountId, t.createdAt), check("production_usage_events_kind", sql`${t.kind} IN ('cutout')`)],
);

/** Fractions of the upright photo (0..1 inside it; a frame may reach outside). */
export type PhotoBox = { x: number; y: number; width: number; height: number };

/**
 * The most prominent face of one job photo (and the places of all its faces), found once by the face engine and kept:
 * the storefront's crop starts from its framing, and a print's check knows the photo
 * has a face to look for. A photo where none was found has a row with nulls (not
 * looked for again).
 */
export const photoFaces = pgTable("photo_faces", {
  jobFileId: integer("job_file_id")
    .primaryKey()
    .references(() => jobFiles.id, { onDelete: "cascade" }),
  accountId: accountId(),
  /** The face's tight box (brow to chin, cheek to cheek). */
  faceBox: jsonb("face_box").$type<PhotoBox>(),
  /** Face Crop's window for the job's preset (head size and eye line), before any print's aspect. */
  frame: jsonb("frame").$type<PhotoBox>(),
  /**
   * Every face the engine kept, most prominent first (`face_box` is the first): a print of a
   * group photo must keep each of them inside its safe area, and the check's fast path needs
   * their places without running the engine. [] with no face; null on a row kept before the
   * column, completed the next time it is read (photo-face.ts).
   */
  faces: jsonb("faces").$type<PhotoBox[]>(),
  detectedAt: stamp("detected_at"),
});
