import { z } from "zod";
import { ICP_TYPES } from "./presets";
import { MAX_URLS } from "./limits";

const imageUrl = (field: string) =>
  z
    .string({ error: `${field} must be the URL of a JPEG, PNG, WebP or TIFF photo.` })
    .trim()
    .max(4096, `${field} is longer than 4096 characters.`)
    .pipe(z.url({ error: `${field} must be an absolute http(s) URL.` }));

const icpType = z.enum(ICP_TYPES, { error: `icp_type is required: one of ${ICP_TYPES.join(", ")}.` });

/** POST /v1/services/studio/face-crop (contract 4.4): exactly one of image_url / image_urls. */
export const faceCropBody = z
  .strictObject({
    image_url: imageUrl("image_url").optional(),
    image_urls: z
      .array(imageUrl("image_urls[]"), { error: "image_urls must be an array of URLs." })
      .min(1, "image_urls must hold at least one URL.")
      .max(MAX_URLS, `image_urls holds at most ${MAX_URLS} URLs; upload larger batches with POST /v1/services/studio/face-crop/upload.`)
      .optional(),
    icp_type: icpType,
    enhance: z.boolean({ error: "enhance must be true or false." }).default(false),
  })
  .superRefine((b, ctx) => {
    if ((b.image_url === undefined) === (b.image_urls === undefined)) {
      ctx.addIssue({ code: "custom", path: b.image_url === undefined ? ["image_url"] : ["image_urls"], message: "Send exactly one of image_url (one photo) or image_urls (several)." });
    }
  });
export type FaceCropInput = z.output<typeof faceCropBody>;

/** The non-file fields of the multipart upload form (values arrive as strings). */
export const faceCropUploadFields = z.strictObject({
  icp_type: icpType,
  enhance: z.enum(["true", "false"], { error: 'enhance must be "true" or "false".' }).default("false").transform((v) => v === "true"),
});

export const taskParams = z.object({ taskId: z.string().min(1).max(64) });
export const resultParams = z.object({ resultId: z.string().min(1).max(64) });

/** PUT /v1/services/studio/face-crop/results/{resultId}: a window drawn by hand, upright source pixels. */
export const recropBody = z.strictObject({
  crop_box: z.strictObject({
    x: z.number({ error: "crop_box.x must be a number of pixels." }).min(0, "crop_box.x must be at least 0."),
    y: z.number({ error: "crop_box.y must be a number of pixels." }).min(0, "crop_box.y must be at least 0."),
    w: z.number({ error: "crop_box.w must be a number of pixels." }).min(16, "crop_box.w must be at least 16 pixels."),
    h: z.number({ error: "crop_box.h must be a number of pixels." }).min(16, "crop_box.h must be at least 16 pixels."),
  }, { error: "crop_box is required: { x, y, w, h } in the photo's upright pixels." }),
});

// Response shapes, for the API description (lib/http/openapi); the contract test validates real answers against them.
const box = z.object({ x: z.number(), y: z.number(), w: z.number(), h: z.number() });
const point = z.object({ x: z.number(), y: z.number() });
const ts = z.iso.datetime({ offset: true });

/** One file's result: cropped, still pending, or failed with its error. */
export const faceCropResultResponse = z.union([
  z.object({
    result_id: z.string(),
    filename: z.string(),
    icp_type: z.string(),
    face_box: box.nullable(),
    output_urls: z.object({ original: z.string().nullable(), medium: z.string().nullable() }),
    faces_found: z.number().int().nullable(),
    landmarks: z
      .object({ left_eye: point, right_eye: point, chin: point, crown: point })
      .nullable()
      .describe("Eye centres, the bottom of the chin (from the model `landmark_model` names) and the crown (top of the head, hair included where the person outline was read), upright source pixels."),
    landmark_model: z
      .enum(["face-api-landmark68", "mesh"])
      .nullable()
      .describe('Which model placed the eyes and chin: "face-api-landmark68" (a jaw-aware 68-point net trained on human landmark markup: its chin, its eyes averaged with the mesh\'s eye contours) or "mesh" (the 468-point face mesh, where the net\'s points were implausible, and on results made before the net).'),
    crown_source: z
      .enum(["matte", "landmarks"])
      .nullable()
      .describe('Where `landmarks.crown` came from: "matte" (the top of the person\'s outline above the face) or "landmarks" (estimated from eyes and chin, where the outline was missing or disagreed).'),
    crop_box: box.extend({ angle: z.number() }).nullable(),
    edge: z.string().nullable().describe('What was done near the photo\'s edge: "none", "shifted" (moved inside, within the preset\'s tolerance) or "padded" (the canvas was extended). "zoomed" appears only on results made before padding.'),
    padded: z.boolean().describe("True when the frame reached outside the photo and the canvas was extended (edge pixels repeated and blurred) instead of cutting the head."),
    padding: z
      .object({ top: z.number().int(), right: z.number().int(), bottom: z.number().int(), left: z.number().int() })
      .describe("How many output pixels of fill each side of the crop has (all 0 when not padded)."),
    manual: z.boolean(),
    enhancement: z.string().nullable(),
    output_size: z.object({ width: z.number().int().nullable(), height: z.number().int().nullable() }),
    source: z.object({ url: z.string().nullable(), width: z.number().int().nullable(), height: z.number().int().nullable() }),
  }),
  z.object({ result_id: z.string(), filename: z.string(), status: z.literal("pending") }),
  z.object({ result_id: z.string(), filename: z.string(), error: z.object({ code: z.string(), message: z.string() }) }),
]);

/** GET /v1/services/studio/jobs/{taskId}: `results` once the task has ended. */
export const faceCropTaskResponse = z.object({
  task_id: z.string(),
  status: z.enum(["queued", "running", "completed", "failed"]),
  total_files: z.number().int(),
  progress: z.object({ current: z.number().int(), total: z.number().int(), percentage: z.number().int() }),
  icp_type: z.string(),
  enhance: z.boolean(),
  tokens_deducted: z.number().int(),
  tokens_refunded: z.number().int(),
  wallet_transaction_id: z.string(),
  refund_transaction_id: z.string().nullable(),
  created_at: ts,
  completed_at: ts.nullable(),
  error_message: z.string().nullable(),
  results: z.array(faceCropResultResponse).optional(),
});

/** A batch cropped at once (200): every file's result, and what was charged and refunded. */
export const faceCropSyncResponse = z.object({
  task_id: z.string(),
  results: z.array(faceCropResultResponse),
  tokens_deducted: z.number().int(),
  tokens_refunded: z.number().int(),
  wallet_transaction_id: z.string(),
  refund_transaction_id: z.string().nullable(),
});

/** A batch accepted as a task (202): poll GET /v1/services/studio/jobs/{task_id}. */
export const faceCropQueuedResponse = z.object({
  task_id: z.string(),
  status: z.literal("queued"),
  total_files: z.number().int(),
  tokens_deducted: z.number().int(),
  wallet_transaction_id: z.string(),
});

const queuedAnswer = { status: 202, response: faceCropQueuedResponse, description: "Accepted as a task (enhancement, or a batch too large to crop at once): poll GET /v1/services/studio/jobs/{task_id}." };

/** The `doc` of both ways to start a batch (photo URLs, or uploaded files). */
export const faceCropDoc = { response: faceCropSyncResponse, alsoAnswers: [queuedAnswer], billed: true };
