import { z } from "zod";
import { decimalInt, INT4_MAX } from "@/lib/foundation/http/decimal-int";
import { pageQuery, paginatedResponse } from "@/lib/foundation/http/pagination";
import { intId, storedPhotoShape } from "@/lib/services/agencies/schemas";
import { MATCH_DECISIONS, MAX_MATCH_FILE_IDS, MAX_THRESHOLD, MIN_THRESHOLD, REVIEW_REASONS } from "./limits";

const bodyId = (field: string) =>
  z
    .number({ error: `${field} must be an integer id (a number, not a string).` })
    .int(`${field} must be an integer id.`)
    .min(1, `${field} must be an integer id from 1.`)
    .max(INT4_MAX, `${field} must be an integer id up to ${INT4_MAX}.`);

export const referencesBody = z.strictObject({ agency_id: bodyId("agency_id") });

const agencyIdParam = decimalInt(1, INT4_MAX, { digits: "agency_id must be an integer id (decimal digits)." });
export const referencesQuery = z.strictObject({ agency_id: agencyIdParam });

/**
 * POST /v1/services/studio/matching/match-job (contract 4.6). "Neither job_id nor
 * file_ids" is the contract's 422 and is decided by the service, after parsing.
 */
export const matchJobBody = z
  .strictObject({
    agency_id: bodyId("agency_id"),
    job_id: bodyId("job_id").optional(),
    file_ids: z
      .array(bodyId("file_ids[]"), { error: "file_ids must be an array of integer file ids." })
      .min(1, "file_ids must hold at least one file id (or send job_id to match every photo of a job).")
      .max(MAX_MATCH_FILE_IDS, `file_ids holds at most ${MAX_MATCH_FILE_IDS} ids; send job_id to match a whole job.`)
      .optional(),
    threshold: z
      .number({ error: `threshold must be a number from ${MIN_THRESHOLD} to ${MAX_THRESHOLD}.` })
      .min(MIN_THRESHOLD, `threshold must be from ${MIN_THRESHOLD} to ${MAX_THRESHOLD}.`)
      .max(MAX_THRESHOLD, `threshold must be from ${MIN_THRESHOLD} to ${MAX_THRESHOLD}.`)
      .optional(),
  })
  .refine((b) => b.job_id === undefined || b.file_ids === undefined, { path: ["file_ids"], message: "Send job_id or file_ids, not both." });
export type MatchJobInput = z.output<typeof matchJobBody>;

export const matchJobParams = z.object({ matchJobId: intId });
export const faceParams = z.object({ matchJobId: intId, faceId: z.string().min(1).max(64) });

export const resultsQuery = pageQuery.extend({
  decision: z.enum([...MATCH_DECISIONS, "failed"], { error: `decision must be one of ${[...MATCH_DECISIONS, "failed"].join(", ")}.` }).optional(),
  subject_id: z.string().min(1).max(64).optional(),
});
export type ResultsQuery = z.output<typeof resultsQuery>;

/** A photographer's decision on one face. */
export const reviewBody = z.discriminatedUnion(
  "action",
  [
    z.strictObject({ action: z.literal("accept") }),
    z.strictObject({ action: z.literal("assign"), subject_id: z.string({ error: "subject_id is required with action assign." }).min(1).max(64) }),
    z.strictObject({ action: z.literal("nobody") }),
    // The proposal is wrong: the next candidate is proposed (needs_review until accepted), or the face is left unmatched.
    z.strictObject({ action: z.literal("not_this_person") }),
    z.strictObject({ action: z.literal("reset") }),
  ],
  { error: "action must be one of accept, assign (with subject_id), nobody, not_this_person, reset." },
);
export type ReviewInput = z.output<typeof reviewBody>;

export const consentBody = z.strictObject({ face_matching_enabled: z.boolean({ error: "face_matching_enabled must be true or false." }) });

// Responses (the API description and the contract test).
const problem = z.object({ student_id: z.string(), subject_id: z.string(), portrait_id: z.string().nullable().optional(), reason: z.string(), message: z.string() });
export const referencesSyncResponse = z.object({
  status: z.literal("completed"),
  agency_id: z.number().int(),
  subjects_with_photos: z.number().int(),
  embeddings_created: z.number().int(),
  embeddings_kept: z.number().int(),
  embeddings_removed: z.number().int(),
  embeddings_total: z.number().int(),
  report: z.array(problem),
});
export const referencesAsyncResponse = z.object({
  status: z.literal("queued"),
  agency_id: z.number().int(),
  task_id: z.string(),
  subjects_with_photos: z.number().int(),
  poll_url: z.string(),
});
export const referencesTaskResponse = z.object({
  task_id: z.string(),
  type: z.literal("face_references"),
  agency_id: z.number().int(),
  status: z.enum(["queued", "running", "completed", "failed"]),
  subjects_total: z.number().int(),
  processed: z.number().int(),
  embeddings_created: z.number().int(),
  report: z.array(problem),
  error: z.string().nullable(),
  created_at: z.string(),
  completed_at: z.string().nullable(),
});
export const deleteReferencesResponse = z.object({ agency_id: z.number().int(), embeddings_deleted: z.number().int() });
export const matchJobAccepted = z.object({
  match_job_id: z.number().int(),
  task_id: z.string(),
  total_files: z.number().int(),
  /** Photos left out because the job's QR sort found them to be Bulk QR cards (not charged). */
  cards_skipped: z.number().int(),
  tokens_deducted: z.number().int(),
  wallet_transaction_id: z.string(),
  threshold: z.number(),
  status: z.string(),
});
/** What matching a whole job would bill now (the job detail's `match`): counted as the debit counts. */
export const matchEstimateResponse = z.object({
  photos: z.number().int(),
  /** Photos a QR sort of the job found to be Bulk QR cards: left out, not charged. */
  cards_skipped: z.number().int(),
  tokens: z.number().int(),
});
export const matchJobResponse = z.object({
  id: z.number().int(),
  task_id: z.string(),
  agency_id: z.number().int(),
  job_id: z.number().int().nullable(),
  status: z.enum(["queued", "running", "completed", "failed"]),
  threshold: z.number(),
  total_files: z.number().int(),
  processed_files: z.number().int(),
  matched: z.number().int(),
  needs_review: z.number().int(),
  unmatched: z.number().int(),
  failed: z.number().int(),
  tokens_deducted: z.number().int(),
  tokens_refunded: z.number().int(),
  wallet_transaction_id: z.string(),
  refund_transaction_id: z.string().nullable(),
  error: z.string().nullable(),
  created_at: z.string(),
  completed_at: z.string().nullable(),
});
const boxShape = z.object({ x: z.number(), y: z.number(), w: z.number(), h: z.number() });
const decision = z.enum(MATCH_DECISIONS);
export const matchFaceResponse = z.object({
  id: z.string(),
  face_box: boxShape,
  student_id: z.string().nullable(),
  subject_id: z.string().nullable(),
  name: z.string().nullable(),
  score: z.number().nullable(),
  candidate: z.object({ subject_id: z.string(), student_id: z.string().nullable(), name: z.string().nullable(), score: z.number() }).nullable(),
  runner_up: z.object({ student_id: z.string().nullable(), subject_id: z.string().nullable(), name: z.string().nullable(), score: z.number() }).nullable(),
  decision,
  engine_decision: decision,
  review_reason: z.enum(REVIEW_REASONS).nullable(),
  /** rejected: the reviewer said "not this person"; `subject_id` is then the next candidate awaiting confirmation (decision needs_review), or null. */
  review: z.enum(["accepted", "assigned", "nobody", "rejected"]).nullable(),
  reviewed_at: z.string().nullable(),
});
export const matchResultResponse = z.object({
  file_id: z.number().int().nullable(),
  filename: z.string(),
  status: z.enum(["pending", "completed", "failed"]),
  decision: decision.nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  thumbnail_url: z.string().nullable(),
  image_url: z.string().nullable(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  faces: z.array(matchFaceResponse),
});
export const matchResultsResponse = paginatedResponse(matchResultResponse);
export const matchJobListResponse = paginatedResponse(matchJobResponse);
export const reviewResponse = z.object({
  face: matchFaceResponse,
  counts: z.object({ matched: z.number().int(), needs_review: z.number().int(), unmatched: z.number().int(), failed: z.number().int() }),
  /** Whether the confirmed face is now one of its subject's references (learn_from_confirmed_matches). */
  reference_learned: z.boolean(),
});
export const listMatchJobsQuery = pageQuery.extend({ agency_id: agencyIdParam.optional() });

// A subject's reference portraits and references (several per subject).
export const portraitParams = z.object({ agencyId: intId, subjectId: z.string().min(1).max(64), portraitId: z.string().min(1).max(64) });
export const subjectReferenceParams = z.object({ agencyId: intId, subjectId: z.string().min(1).max(64), referenceId: z.string().min(1).max(64) });
const portrait = z.object({
  id: z.string(),
  subject_id: z.string(),
  ...storedPhotoShape,
  embedded: z.boolean(),
  created_at: z.string(),
});
export const portraitsResponse = z.object({
  subject_id: z.string(),
  portraits: z.array(portrait),
  /** The contract's reference photo, one of the subject's reference photos. */
  reference_photo_url: z.string().nullable(),
  /** Portraits plus the reference_photo_url: at most max_reference_photos. */
  reference_photos: z.number().int(),
  max_reference_photos: z.number().int(),
});
export const subjectReferencesResponse = z.object({
  subject_id: z.string(),
  references: z.array(
    z.object({
      id: z.string(),
      source: z.enum(["portrait", "confirmed_match"]),
      portrait_id: z.string().nullable(),
      match_face_id: z.string().nullable(),
      match_job_id: z.number().int().nullable(),
      filename: z.string().nullable(),
      thumbnail_url: z.string().nullable(),
      face_box: z.object({ x: z.number(), y: z.number(), w: z.number(), h: z.number() }),
      photo_width: z.number().int().nullable(),
      photo_height: z.number().int().nullable(),
      created_at: z.string(),
    }),
  ),
});

// Review by group: faces of a job that look like one person, filed with one decision.
export const groupParams = z.object({ matchJobId: intId, group: z.string().min(1).max(64) });
export const groupsQuery = pageQuery;
/** One decision for every face of the group nobody has reviewed yet; `reset` (with the ids a decision answered) undoes it. */
export const groupReviewBody = z.discriminatedUnion(
  "action",
  [
    z.strictObject({ action: z.literal("assign"), subject_id: z.string({ error: "subject_id is required with action assign." }).min(1).max(64) }),
    z.strictObject({ action: z.literal("nobody") }),
    z.strictObject({
      action: z.literal("reset"),
      face_ids: z
        .array(z.string().min(1).max(64), { error: "face_ids must be an array of face ids (the ids the decision answered)." })
        .min(1, "face_ids must hold at least one face id.")
        .max(2000, "face_ids holds at most 2000 ids."),
    }),
  ],
  { error: "action must be one of assign (with subject_id), nobody, reset (with face_ids)." },
);
export type GroupReviewInput = z.output<typeof groupReviewBody>;
const subjectRef = z.object({ subject_id: z.string(), student_id: z.string().nullable(), name: z.string().nullable() });
export const faceGroupResponse = z.object({
  group: z.string(),
  /** Faces nobody has reviewed yet that the engine did not file by itself: what one decision files. */
  open_faces: z.number().int(),
  /**
   * Whom to offer the group first: the child its filed faces belong to (`filed`: a reviewer
   * confirmed or the engine matched some of its faces), else the engine's most frequent
   * candidate among its open faces (`candidate`); null when neither.
   */
  suggestion: subjectRef.extend({ reason: z.enum(["filed", "candidate"]), faces: z.number().int() }).nullable(),
  faces: z.array(
    z.object({
      id: z.string(),
      file_id: z.number().int().nullable(),
      filename: z.string(),
      width: z.number().int().nullable(),
      height: z.number().int().nullable(),
      thumbnail_url: z.string().nullable(),
      face_box: boxShape,
      decision,
      review: z.enum(["accepted", "assigned", "nobody", "rejected"]).nullable(),
      open: z.boolean(),
      subject: subjectRef.nullable(),
    }),
  ),
});
export const faceGroupsResponse = paginatedResponse(faceGroupResponse);
export const groupReviewResponse = z.object({
  group: z.string(),
  /** The faces this decision changed (send them back with action reset to undo it). */
  face_ids: z.array(z.string()),
  counts: z.object({ matched: z.number().int(), needs_review: z.number().int(), unmatched: z.number().int(), failed: z.number().int() }),
});
