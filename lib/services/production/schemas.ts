import { z } from "zod";
import { paginatedResponse, pageQuery } from "@/lib/foundation/http/pagination";
import { HOLD_CODES, LAB_BATCH_STATUSES } from "@/lib/foundation/db/schema";
import { cropBox } from "@/lib/services/orders/schemas";
import { BACKGROUND_COLOR, BATCH_SHIPPINGS, BATCH_STEPS, MANIFEST_FIELDS } from "./values";

export const batchParams = z.object({ id: z.string().min(1).max(64) });
export const orderParams = z.object({ id: z.string().min(1).max(64) });
export const batchListQuery = pageQuery;

export const createBatchBody = z
  .strictObject({
    shipping: z.enum(BATCH_SHIPPINGS, { error: "Choose the shipping: direct (to each address) or school (one parcel to the school)." }),
    /** The agency job whose paid orders go in. */
    job_id: z.number({ error: "Give the job's id (a number)." }).int().positive().optional(),
    /** The UTC day the orders were paid on. */
    paid_on: z.iso.date({ error: "Give the day as YYYY-MM-DD." }).optional(),
  })
  .refine((b) => b.job_id !== undefined || b.paid_on !== undefined, { path: ["job_id"], message: "Give job_id or paid_on (a batch is per job or per day)." });

const tracking = z.strictObject({ tracking_number: z.string().trim().min(1).max(100), carrier: z.string().trim().min(1).max(100).optional() });
export const batchStatusBody = z.strictObject({
  status: z.enum(BATCH_STEPS, { error: "Move the batch to sent, printed or shipped." }),
  /** Shipped direct: each parcel's tracking, by order id. */
  tracking: z.record(z.string().min(1).max(64), tracking).optional(),
});

const columnName = z.string().trim().min(1, "A column needs a name.").max(60, "At most 60 characters.");
export const settingsBody = z.strictObject({
  manifest_columns: z
    .strictObject(Object.fromEntries(MANIFEST_FIELDS.map((f) => [f, columnName.optional()])) as Record<(typeof MANIFEST_FIELDS)[number], z.ZodOptional<typeof columnName>>)
    .refine((c) => new Set(Object.values(c)).size === Object.values(c).length, "Two fields cannot share a column name."),
});
/** PUT /v1/production/settings/lab-profile: the multipart body. */
export const labProfileForm = z.object({ file: z.string().meta({ format: "binary", description: "The lab's ICC profile (.icc/.icm): RGB, output (prtr) or display (mntr) class." }) });
export const labProfileResponse = z.object({
  lab_profile: z.object({ description: z.string(), bytes: z.number().int(), uploaded_at: z.string() }).nullable().describe("The lab's ICC profile print files are converted into; null: sRGB"),
});
export const settingsResponse = z.object({ manifest_columns: z.record(z.string(), z.string()) }).extend(labProfileResponse.shape);

const batchStatus = z.enum(LAB_BATCH_STATUSES);

export const printFileResponse = z.object({
  id: z.string(),
  order_id: z.string(),
  order_item_id: z.string(),
  product_id: z.string(),
  product_code: z.string(),
  size: z.string(),
  quantity: z.number(),
  status: z.enum(["pending", "rendered", "held"]),
  hold_reasons: z.array(z.string()),
  /** Why it is held, for the fix: preflight (re-crop or another photo), missing (photo, product or background gone), matte_doubtful (the studio looks at the cut-out), face_outside_safe_area (re-crop: the face found again on the file crosses the trim's safe margin), lab_profile_missing (upload the lab's colour profile again: the file renders then). */
  hold_code: z.enum(HOLD_CODES).nullable(),
  background_id: z.string().nullable(),
  matte_released: z.boolean(),
  width_px: z.number().nullable(),
  height_px: z.number().nullable(),
  source_ppi: z.number().nullable(),
  batch_id: z.string().nullable(),
  batch_status: batchStatus.nullable().describe("The status of the file's batch; null: in no batch"),
  shipped: z.boolean().describe("Rendered into a batch the lab shipped; an order is shipped once all its print files are"),
  thumb_url: z.string().nullable(),
});
export const printFileListResponse = z.object({ data: z.array(printFileResponse) });

export const batchResponse = z.object({
  id: z.string(),
  shipping: z.enum(BATCH_SHIPPINGS),
  job_id: z.number().nullable(),
  paid_on: z.string().nullable(),
  status: batchStatus,
  error: z.string().nullable(),
  order_count: z.number(),
  progress: z.object({ total: z.number(), rendered: z.number(), held: z.number(), pending: z.number() }),
  zip_url: z.string().nullable(),
  slips_url: z.string().nullable(),
  created_at: z.string(),
  files: z.array(printFileResponse).optional(),
});
export const batchListResponse = paginatedResponse(batchResponse);
export type CreateBatchBody = z.output<typeof createBatchBody>;
export type BatchStatusBody = z.output<typeof batchStatusBody>;

export const backgroundParams = z.object({ id: z.string().min(1).max(64) });
export const backgroundName = z.string({ error: "Give the background's name." }).trim().min(1, "Give the background's name.").max(80, "At most 80 characters.");
/** A colour background as JSON; an uploaded one is multipart (`file` and `name`). */
export const createColorBackgroundBody = z.strictObject({
  name: backgroundName,
  color: z.string({ error: "Give the colour as #rrggbb." }).regex(BACKGROUND_COLOR, "A colour as #rrggbb, e.g. #1e3a5f.").transform((c) => c.toLowerCase()),
});
export const backgroundResponse = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(["image", "color"]),
  color: z.string().nullable(),
  width: z.number().nullable(),
  height: z.number().nullable(),
  url: z.string().nullable(),
  thumbnail_url: z.string().nullable(),
  created_at: z.string(),
});
export const backgroundListResponse = paginatedResponse(backgroundResponse);
export const backgroundDeletedResponse = z.object({ deleted: z.literal(true) });

export const printFileParams = z.object({ id: z.string().min(1).max(64) });
/** The studio's fix of a held print file; the file is rendered and checked again at once. */
export const fixPrintFileBody = z.discriminatedUnion(
  "action",
  [
    z.strictObject({ action: z.literal("recrop"), crop: cropBox }),
    z.strictObject({ action: z.literal("photo"), photo_id: z.string({ error: "Give the photo's id." }).min(1).max(64), crop: cropBox.optional() }),
    z.strictObject({ action: z.literal("release_matte") }),
    z.strictObject({ action: z.literal("drop_background") }),
  ],
  { error: "Choose the fix: recrop, photo, release_matte or drop_background." },
);
export type FixPrintFileBody = z.output<typeof fixPrintFileBody>;

/** A held file with what its fix can choose from: the child's photos (previews, for the crop editor) and the print's size. */
export const printFileFixResponse = printFileResponse.extend({
  fix: z.object({
    photo_id: z.string(),
    crop: z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() }).nullable(),
    size: z.object({ width_in: z.number(), height_in: z.number() }),
    photos: z.array(z.object({ id: z.string(), preview_url: z.string(), width: z.number(), height: z.number(), original_width: z.number(), original_height: z.number() })),
  }),
});

/** GET /v1/parent/photos/{photoId}/backgrounds/{backgroundId}. */
export const backgroundPreviewParams = z.object({ photoId: z.string().min(1).max(64), backgroundId: z.string().min(1).max(64) });

/** GET /v1/production/usage: the days counted, both included (UTC); by default the month so far. */
export const usageQuery = z
  .strictObject({
    from: z.iso.date("A date: YYYY-MM-DD.").optional(),
    to: z.iso.date("A date: YYYY-MM-DD.").optional(),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { path: ["to"], message: "On or after from." });
export const usageResponse = z.object({
  from: z.string(),
  to: z.string(),
  cutouts: z
    .object({ full: z.number().int(), preview: z.number().int(), total: z.number().int() })
    .describe("Person mattes the background-removal engine made for the studio's photos on those days, one engine run each: full (a print's composite) and preview (the storefront's live preview); each photo's is made once and kept"),
});

/** GET /v1/parent/photos/{photoId}/print-warnings: the print line as the cart holds it (the crop as fractions of the photo: all four or none). */
export const printWarningsQuery = z
  .strictObject({
    /** One of item_id (a print) or package_id (each print of the package) is required: checked after the photo (a photo the token does not open is 404 first). */
    item_id: z.string().min(1).max(64).optional(),
    package_id: z.string().min(1).max(64).optional(),
    x: z.coerce.number().min(0).max(1).optional(),
    y: z.coerce.number().min(0).max(1).optional(),
    width: z.coerce.number().gt(0).max(1).optional(),
    height: z.coerce.number().gt(0).max(1).optional(),
    background_id: z.string().min(1).max(64).optional(),
  })
  .superRefine((q, ctx) => {
    const given = [q.x, q.y, q.width, q.height].filter((v) => v !== undefined).length;
    if (given !== 0 && given !== 4) ctx.addIssue({ code: "custom", path: ["x"], message: "Give the crop's x, y, width and height together, or none (the whole photo)." });
    else if (given === 4 && (q.x! + q.width! > 1.0001 || q.y! + q.height! > 1.0001)) ctx.addIssue({ code: "custom", path: ["width"], message: "The crop box must lie inside the photo (fractions 0..1)." });
  });
export type PrintWarningsQuery = z.output<typeof printWarningsQuery>;

export const printWarningsResponse = z.object({
  photo_id: z.string(),
  /** What production would hold this print for, in the hold's words; empty: nothing. */
  /** `item_id`: the print each is about (a package's prints are named in the message too). */
  warnings: z.array(z.object({ code: z.enum(["head_cut", "face_outside_safe_area"]), message: z.string(), item_id: z.string() })),
});
