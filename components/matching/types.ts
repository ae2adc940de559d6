import type { paths } from "@/lib/client/api-client";
import type { ApiResponse } from "@/lib/client/typed-api";
import type { FaceDecision, FaceReviewReason } from "@/lib/services/matching/limits";

/** Shapes of /v1/services/studio/matching, as the studio pages read them: from the OpenAPI document. */
export type Decision = FaceDecision;
export type Box = { x: number; y: number; w: number; h: number };

type Results = ApiResponse<"/v1/services/studio/matching/jobs/{matchJobId}/results", "get">;
export type MatchJob = ApiResponse<"/v1/services/studio/matching/jobs/{matchJobId}", "get">;
export type MatchResult = Results["data"][number];
export type MatchFace = MatchResult["faces"][number];
export type MatchResultsPage = Results;
export type FaceGroup = ApiResponse<"/v1/services/studio/matching/jobs/{matchJobId}/groups", "get">["data"][number];

type ReferencesResponses = NonNullable<paths["/v1/services/studio/matching/references"]["post"]>["responses"];
/** 200: built at once; 202: a job to poll (20 subjects with photos or more). */
export type ReferencesAnswer = ReferencesResponses[200]["content"]["application/json"] | ReferencesResponses[202]["content"]["application/json"];
type StudioTask = ApiResponse<"/v1/services/studio/jobs/{taskId}", "get">;
/** The studio task poll answers one of several task shapes; a reference build is the `face_references` one. */
export type ReferenceTask = Extract<StudioTask, { type: "face_references" }>;
export type ReferenceProblem = ReferenceTask["report"][number];
export const isReferenceTask = (task: StudioTask): task is ReferenceTask => "type" in task && task.type === "face_references";

export const matchingKeys = {
  jobs: ["matching", "jobs"] as const,
  job: (id: number) => ["matching", "job", id] as const,
  results: (id: number, filter: string, page: number) => ["matching", "job", id, "results", filter, page] as const,
  roster: (agencyId: number) => ["matching", "roster", agencyId] as const,
  groups: (id: number, page: number) => ["matching", "job", id, "groups", page] as const,
};

export const DECISION_LABEL: Record<Decision | "failed", string> = { matched: "Matched", needs_review: "Needs review", unmatched: "Unmatched", failed: "Could not be read" };

/** Why the engine asked a person to look (match_faces.review_reason), in a reviewer's words. */
export const REVIEW_REASON: Record<FaceReviewReason, string> = {
  below_threshold: "score just under the threshold",
  large_roster: "a roster this size needs a higher score",
  two_candidates_close: "two children score almost the same",
  same_child_twice: "the same child found twice in this photo",
  small_face: "face too small to be sure",
  blurred_face: "face blurred",
  turned_away: "face turned away",
  face_hidden: "face partly hidden",
};
