import type { ApiResponse } from "@/lib/client/typed-api";

/** Shapes of the /v1/services/studio endpoints as the studio pages read them, derived from the routes. */

type Studio = "/v1/services/studio/agencies";
export type Agency = ApiResponse<Studio, "get">["agencies"][number];
export type AgencyDetail = ApiResponse<`${Studio}/{agencyId}`, "get">;
export type AgencyJob = ApiResponse<`${Studio}/{agencyId}/jobs`, "get">["jobs"][number];
export type AgencyJobDetail = ApiResponse<`${Studio}/{agencyId}/jobs/{jobId}`, "get">;
export type Subject = ApiResponse<`${Studio}/{agencyId}/subjects`, "get">["data"][number];
export type JobFile = ApiResponse<`${Studio}/{agencyId}/jobs/{jobId}/files`, "get">["data"][number];

export const studioKeys = {
  agencies: ["studio", "agencies"] as const,
  agency: (id: number) => ["studio", "agency", id] as const,
  jobs: (agencyId: number) => ["studio", "agency", agencyId, "jobs"] as const,
  job: (agencyId: number, jobId: number) => ["studio", "agency", agencyId, "job", jobId] as const,
  subjects: (agencyId: number) => ["studio", "agency", agencyId, "subjects"] as const,
  files: (jobId: number) => ["studio", "job", jobId, "files"] as const,
};
