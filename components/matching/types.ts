/** Shapes of /v1/services/studio/matching, as the studio pages read them. */
export type Decision = "matched" | "needs_review" | "unmatched";
export type Box = { x: number; y: number; w: number; h: number };

export type MatchJob = {
  id: number;
  task_id: string;
  agency_id: number;
  job_id: number | null;
  status: "queued" | "running" | "completed" | "failed";
  threshold: number;
  total_files: number;
  processed_files: number;
  matched: number;
  needs_review: number;
  unmatched: number;
  failed: number;
  tokens_deducted: number;
  tokens_refunded: number;
  error: string | null;
  created_at: string;
  completed_at: string | null;
};

export type MatchFace = {
  id: string;
  face_box: Box;
  student_id: string | null;
  subject_id: string | null;
  name: string | null;
  score: number | null;
  candidate: { subject_id: string; student_id: string | null; name: string | null; score: number } | null;
  runner_up: { student_id: string | null; subject_id: string | null; score: number } | null;
  decision: Decision;
  engine_decision: Decision;
  review_reason: keyof typeof REVIEW_REASON | null;
  review: "accepted" | "assigned" | "nobody" | null;
  reviewed_at: string | null;
};

export type MatchResult = {
  file_id: number | null;
  filename: string;
  status: "pending" | "completed" | "failed";
  decision: Decision | null;
  width: number | null;
  height: number | null;
  thumbnail_url: string | null;
  image_url: string | null;
  error: { code: string; message: string } | null;
  faces: MatchFace[];
};

export type ReferenceProblem = { student_id: string; subject_id: string; reason: string; message: string };
export type ReferencesAnswer =
  | { status: "completed"; agency_id: number; subjects_with_photos: number; embeddings_created: number; embeddings_kept: number; embeddings_removed: number; embeddings_total: number; report: ReferenceProblem[] }
  | { status: "queued"; agency_id: number; task_id: string; subjects_with_photos: number; poll_url: string };
export type ReferenceTask = { task_id: string; status: "queued" | "running" | "completed" | "failed"; subjects_total: number; processed: number; embeddings_created: number; report: ReferenceProblem[]; error: string | null };

export const matchingKeys = {
  jobs: ["matching", "jobs"] as const,
  job: (id: number) => ["matching", "job", id] as const,
  results: (id: number, filter: string, page: number) => ["matching", "job", id, "results", filter, page] as const,
  roster: (agencyId: number) => ["matching", "roster", agencyId] as const,
};

export const DECISION_LABEL: Record<Decision | "failed", string> = { matched: "Matched", needs_review: "Needs review", unmatched: "Unmatched", failed: "Could not be read" };

/** Why the engine asked a person to look (match_faces.review_reason), in a reviewer's words. */
export const REVIEW_REASON = {
  below_threshold: "score just under the threshold",
  large_roster: "a roster this size needs a higher score",
  two_candidates_close: "two children score almost the same",
  same_child_twice: "the same child found twice in this photo",
  small_face: "face too small to be sure",
} as const;
