/**
 * Face matching's fixed values, the one copy the schema, the services and the studio
 * pages read. Client-safe: no server imports (components import it). The threshold
 * scale belongs to the engine, whose calibration defines it.
 */
import { DEFAULT_MATCH_THRESHOLD, MATCH_THRESHOLD_RANGE } from "@/lib/engines/ml/faces/matching";

/** Contract 4.6 and 8: the threshold's range and default, and the price of a matched photo. */
export const MIN_THRESHOLD = MATCH_THRESHOLD_RANGE.min;
export const MAX_THRESHOLD = MATCH_THRESHOLD_RANGE.max;
export { DEFAULT_MATCH_THRESHOLD };
export const MATCH_PRICE_PER_FILE = 6;
export const MATCH_OPERATION = "face_match";
/** Contract 8: from this many subjects with photos, references are built as a job. */
export const ASYNC_REFERENCES_FROM = 20;
/** Ids one request may list; a whole job goes by job_id. */
export const MAX_MATCH_FILE_IDS = 1000;
/** Photos one match job may take (a picture day is about 3,000). */
export const MAX_MATCH_JOB_FILES = 10_000;
/** Faces per photo the engine describes (a class photo has about 30). */
export const MAX_FACES_PER_PHOTO = 40;
/** References a subject keeps from confirmed matches (the oldest is replaced). */
export const MAX_CONFIRMED_REFERENCES = 5;

/** What a face comes out as (a photo that cannot be read is `failed`, beside these). */
export const MATCH_DECISIONS = ["matched", "needs_review", "unmatched"] as const;
export type FaceDecision = (typeof MATCH_DECISIONS)[number];

/**
 * Why a face is sent to review: the engine's doubts (lib/engines/ml/faces/decide-match.ts),
 * the quality gates (quality-gates.ts) and one child found twice in a photo
 * (match-photo.ts, whose type checks every one of them is listed here).
 */
export const REVIEW_REASONS = ["below_threshold", "large_roster", "two_candidates_close", "same_child_twice", "small_face", "blurred_face", "turned_away", "face_hidden"] as const;
export type FaceReviewReason = (typeof REVIEW_REASONS)[number];
