import { z } from "zod";
import { pageQuery, paginatedResponse } from "@/lib/foundation/http/pagination";
import { intId } from "@/lib/services/agencies/schemas";

export const ROLES = ["card", "subject", "before_first_card", "unknown_card"] as const;

export const sortParams = z.object({ agencyId: intId, jobId: intId });
export const sortTaskParams = z.object({ taskId: z.string().min(1).max(64) });
export const sortFrameParams = z.object({ taskId: z.string().min(1).max(64), fileId: intId });

export const sortResultsQuery = pageQuery.extend({
  role: z.enum(ROLES, { error: `role must be one of ${ROLES.join(", ")}.` }).optional(),
  /** true: only the frames with a review reason (what the photographer should look at). */
  needs_review: z.enum(["true", "false"], { error: "needs_review must be true or false." }).optional(),
  subject_id: z.string().min(1).max(64).optional(),
});
export type SortResultsQuery = z.output<typeof sortResultsQuery>;

/** PATCH .../results/{fileId}: file the frame under another subject of the agency, or under nobody (null). */
export const reassignBody = z.strictObject({
  subject_id: z.string({ error: "subject_id is required: a subject of the job's agency, or null." }).min(1).max(64).nullable(),
});

export const sortWarning = z.object({
  code: z.string(),
  message: z.string(),
  student_id: z.string().optional(),
  subject_id: z.string().nullable().optional(),
  file_ids: z.array(z.number().int()).optional(),
});

export const sortAccepted = z.object({
  task_id: z.string(),
  type: z.literal("qr_sort"),
  status: z.literal("queued"),
  agency_id: z.number().int(),
  job_id: z.number().int(),
  total_files: z.number().int(),
  poll_url: z.string(),
  results_url: z.string(),
});

export const sortTaskResponse = z.object({
  task_id: z.string(),
  type: z.literal("qr_sort"),
  agency_id: z.number().int(),
  job_id: z.number().int(),
  status: z.enum(["queued", "running", "completed", "failed"]),
  total_files: z.number().int(),
  progress: z.object({ current: z.number().int(), total: z.number().int(), percentage: z.number().int() }),
  summary: z
    .object({
      cards: z.number().int(),
      subjects_photographed: z.number().int(),
      subject_frames: z.number().int(),
      before_first_card: z.number().int(),
      unknown_card: z.number().int(),
      needs_review: z.number().int(),
      /** Frames the photographer filed by hand, in this sort or carried over from an earlier sort of the job. */
      corrected_by_hand: z.number().int(),
    })
    .nullable(),
  warnings: z.array(sortWarning),
  error: z.string().nullable(),
  created_at: z.string(),
  completed_at: z.string().nullable(),
});

export const sortFrame = z.object({
  file_id: z.number().int().nullable(),
  filename: z.string(),
  sequence: z.number().int(),
  captured_at: z.string().nullable(),
  subject_id: z.string().nullable(),
  student_id: z.string().nullable(),
  name: z.string().nullable(),
  role: z.enum(ROLES),
  card_payload: z.string().nullable(),
  review: z.array(z.string()),
  manual: z.boolean(),
  thumbnail_url: z.string().nullable(),
});
export const sortResultsResponse = paginatedResponse(sortFrame);
