import { z } from "zod";
import { pageQuery } from "@/lib/foundation/http/pagination";
import { bgRemoveQualitySchema } from "./quality";
import { BG_REMOVE_DEFAULTS, EDGE_SOFTNESS, OUTPUT_BACKGROUNDS, SUBJECT_TYPES } from "./values";

/** POST /v1/services/bg-remove (contract 4.1): defaults as the contract gives them. */
export const createBgRemoveBody = z.strictObject({
  image_url: z
    .string({ error: "image_url is required: the URL of a JPEG, PNG or WebP image (e.g. one from POST /v1/uploads)." })
    .trim()
    .max(4096, "image_url is longer than 4096 characters.")
    .pipe(z.url({ error: "image_url must be an absolute http(s) URL." })),
  subject_type: z.enum(SUBJECT_TYPES, { error: `subject_type must be one of ${SUBJECT_TYPES.join(", ")}.` }).default(BG_REMOVE_DEFAULTS.subject_type),
  edge_softness: z
    .number({ error: `edge_softness must be an integer from ${EDGE_SOFTNESS.min} (hard cut) to ${EDGE_SOFTNESS.max} (feathered).` })
    .int(`edge_softness must be an integer from ${EDGE_SOFTNESS.min} (hard cut) to ${EDGE_SOFTNESS.max} (feathered).`)
    .min(EDGE_SOFTNESS.min, `edge_softness must be at least ${EDGE_SOFTNESS.min}.`)
    .max(EDGE_SOFTNESS.max, `edge_softness must be at most ${EDGE_SOFTNESS.max}.`)
    .default(BG_REMOVE_DEFAULTS.edge_softness),
  high_detail_mode: z.boolean({ error: "high_detail_mode must be true or false." }).default(BG_REMOVE_DEFAULTS.high_detail_mode),
  output_background: z.enum(OUTPUT_BACKGROUNDS, { error: `output_background must be ${OUTPUT_BACKGROUNDS.join(" or ")}.` }).default(BG_REMOVE_DEFAULTS.output_background),
});

export type CreateBgRemoveInput = z.output<typeof createBgRemoveBody>;

export const bgRemoveParams = z.object({ jobId: z.string().min(1).max(64) });

const isoTime = z.iso.datetime({ offset: true });
const jobStatus = z.enum(["pending", "processing", "completed", "failed"]);

/** POST /v1/services/bg-remove -> 202 (toCreatedBgRemoveJob). */
export const createdBgRemoveJobResponse = z.object({
  job_id: z.string(),
  status: jobStatus,
  output_url: z.null(),
  tokens_deducted: z.number().int(),
  wallet_transaction_id: z.string(),
  provider: z.string(),
  created_at: isoTime,
});

/** GET /v1/services/bg-remove/{jobId} (toPublicBgRemoveJob). */
export const bgRemoveJobResponse = z.object({
  job_id: z.string(),
  status: jobStatus,
  subject_type: z.string(),
  edge_softness: z.number().int(),
  high_detail_mode: z.boolean(),
  output_background: z.enum(OUTPUT_BACKGROUNDS),
  output_url: z.string().nullable().meta({ description: "Signed URL of the PNG once completed, valid 24 hours." }),
  tokens_deducted: z.number().int(),
  wallet_transaction_id: z.string(),
  provider: z.string(),
  created_at: isoTime,
  completed_at: isoTime.nullable(),
  error_message: z.string().nullable(),
  quality: bgRemoveQualitySchema,
});

/** GET /v1/services/bg-remove: the contract's page window and an optional status filter. */
export const listBgRemoveQuery = pageQuery.extend({
  status: jobStatus.optional().meta({ description: "Only jobs in this state." }),
});
export type ListBgRemoveQuery = z.output<typeof listBgRemoveQuery>;

/** One job in the list: the GET fields, with download_url and source_url. */
export const bgRemoveJobListItem = bgRemoveJobResponse.extend({
  download_url: z.string().nullable().meta({ description: "The PNG served as an attachment (Content-Disposition), valid 24 hours." }),
  source_url: z.string().meta({ description: "The original picture (re-signed when it is one of your uploads)." }),
  source_name: z.string().nullable().meta({ description: "The original's file name: the upload's name, or the URL's last segment." }),
  download_name: z.string().meta({ description: "The name download_url saves under: `<source name>-cutout.png` (or `cutout-<job_id>.png`)." }),
  output_size: z.object({ width: z.number().int(), height: z.number().int() }).nullable(),
});
