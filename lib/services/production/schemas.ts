import { z } from "zod";
import { paginatedResponse, pageQuery } from "@/lib/foundation/http/pagination";
import { BATCH_SHIPPINGS, BATCH_STEPS, MANIFEST_FIELDS } from "./values";

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
export const settingsResponse = z.object({ manifest_columns: z.record(z.string(), z.string()) });

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
  width_px: z.number().nullable(),
  height_px: z.number().nullable(),
  source_ppi: z.number().nullable(),
  batch_id: z.string().nullable(),
  thumb_url: z.string().nullable(),
});
export const printFileListResponse = z.object({ data: z.array(printFileResponse) });

export const batchResponse = z.object({
  id: z.string(),
  shipping: z.enum(BATCH_SHIPPINGS),
  job_id: z.number().nullable(),
  paid_on: z.string().nullable(),
  status: z.enum(["rendering", "ready", "sent", "printed", "shipped", "failed"]),
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
