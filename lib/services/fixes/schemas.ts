import { z } from "zod";
import { FIX_TYPES } from "@/lib/services/preflight/fix-types";
import { MAX_PREVIEW_PAGES } from "./limits";

export const MIN_TARGET_DPI = 50;
export const MAX_TARGET_DPI = 2400;

/** POST /v1/services/preflight/ai-jobs (contract 4.3); `review` is ours (docs/api.md). */
export const createFixJobBody = z.strictObject({
  preflightReportId: z.string({ error: "preflightReportId is required: the reportId of a preflight check." }).min(1, "preflightReportId must not be empty.").max(64, "preflightReportId is too long."),
  options: z
    .strictObject({
      fixTypes: z
        .array(z.enum(FIX_TYPES, { error: `each fix type must be one of ${FIX_TYPES.join(", ")}.` }), { error: "fixTypes must be an array of fix types." })
        .min(1, "fixTypes must name at least one fix type (leave it out to derive them from the report).")
        .max(FIX_TYPES.length, `fixTypes may list at most ${FIX_TYPES.length} fix types.`)
        .optional(),
      targetDpi: z
        .number({ error: `targetDpi must be a whole number of pixels per inch from ${MIN_TARGET_DPI} to ${MAX_TARGET_DPI}.` })
        .int("targetDpi must be a whole number of pixels per inch.")
        .min(MIN_TARGET_DPI, `targetDpi must be at least ${MIN_TARGET_DPI}.`)
        .max(MAX_TARGET_DPI, `targetDpi may be at most ${MAX_TARGET_DPI}.`)
        .optional(),
      review: z.boolean({ error: "review must be true or false." }).optional(),
    })
    .optional(),
});
export type CreateFixJobBody = z.output<typeof createFixJobBody>;

export const fixJobParams = z.object({ jobId: z.string().min(1).max(64) });

/** POST .../{jobId}/approve: all suggestions, or the listed subset of them. */
export const approveFixJobBody = z.strictObject({
    fixTypes: z
      .array(z.enum(FIX_TYPES, { error: `each fix type must be one of ${FIX_TYPES.join(", ")}.` }), { error: "fixTypes must be an array of fix types." })
      .min(1, "fixTypes must name at least one suggested fix (reject the job to apply none).")
      .optional(),
});
export type ApproveFixJobBody = z.output<typeof approveFixJobBody>;

export const FIX_JOB_STATUSES = ["analyzing", "awaiting_approval", "applying", "completed", "failed", "rejected"] as const;

// Response shapes, for the API description (lib/http/openapi); the contract test validates real answers against them.
const ts = z.iso.datetime({ offset: true });
const cost = z.object({ min: z.number().int(), max: z.number().int() });

/** POST /v1/services/preflight/ai-jobs (202): the job as accepted. */
export const acceptedFixJobResponse = z.object({
  data: z.object({
    jobId: z.string(),
    status: z.string(),
    estimatedTokenCost: cost,
    tokensDeducted: z.number().int(),
    tier: z.string(),
    fixTypes: z.array(z.string()),
    prepressSteps: z.array(z.string()),
    targetDpi: z.number().int(),
    review: z.boolean(),
  }),
});

/** One fix as planned (a suggestion) or as applied (FixStepRecord). */
const fixStep = z.object({
  fixType: z.string(),
  prepressSteps: z.array(z.string()).optional(),
  params: z.record(z.string(), z.unknown()),
  description: z.string(),
  skipped: z.string().optional(),
});
/** The corrected file checked again by the same preflight (FixRecheckRecord). */
const fixRecheck = z.object({
  reportId: z.string(),
  status: z.enum(["pass", "warning", "fail"]),
  resolved: z.array(z.string()),
  remaining: z.array(z.string()),
  unfixed: z.array(z.string()),
  notFixable: z
    .array(z.object({ code: z.string(), page: z.number().int().optional(), message: z.string() }))
    .optional()
    .meta({ description: "Problems of the checked file that an AI fix cannot repair and that are still in the corrected file, each with what to do." }),
});

/** The job as GET returns it (approve and reject answer the same); the analysis and recheck records are described in docs/api.md. */
export const fixJobResponse = z.object({
  jobId: z.string(),
  status: z.enum(FIX_JOB_STATUSES),
  preflightReportId: z.string(),
  correctedFileUrl: z.string().nullable().meta({ description: "Served as an attachment, valid 24 hours." }),
  correctedFileType: z.string().nullable(),
  tokensDeducted: z.number().int(),
  estimatedTokenCost: cost,
  tier: z.string(),
  fixTypes: z.array(z.string()),
  prepressSteps: z.array(z.string()),
  targetDpi: z.number().int(),
  review: z.boolean(),
  suggestions: z.array(fixStep).nullable(),
  approvedFixTypes: z.array(z.string()).nullable(),
  fixesApplied: z.array(fixStep).nullable(),
  flattenedPages: z.array(z.number().int()).nullable(),
  preview: z.object({
    beforeUrl: z.string().nullable().meta({ description: "Page 1 (or the raster) before the fix." }),
    afterUrl: z.string().nullable(),
    pages: z
      .array(z.object({ page: z.number().int(), beforeUrl: z.string().nullable(), afterUrl: z.string().nullable() }))
      .meta({ description: `Every page drawn (a PDF's pages up to ${MAX_PREVIEW_PAGES}; a raster is page 1), before and after.` }),
  }),
  recheck: fixRecheck.nullable(),
  errorMessage: z.string().nullable(),
  createdAt: ts,
  completedAt: ts.nullable(),
});
export const fixJobEnvelope = z.object({ data: fixJobResponse });
