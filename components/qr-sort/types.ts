import type { ApiResponse } from "@/lib/client/typed-api";

/** Shapes of the QR sort endpoints as the studio pages read them, from the OpenAPI document. */
export type SortTask = ApiResponse<"/v1/services/studio/agencies/{agencyId}/jobs/{jobId}/qr-sort", "get">["data"][number];
export type SortResultsPage = ApiResponse<"/v1/services/studio/qr-sort/{taskId}/results", "get">;
export type SortFrame = SortResultsPage["data"][number];

export const qrSortKeys = {
  sorts: (jobId: number) => ["qr-sort", "job", jobId] as const,
  task: (taskId: string) => ["qr-sort", "task", taskId] as const,
  results: (taskId: string) => ["qr-sort", "task", taskId, "results"] as const,
};

/** Why the sort asks the photographer to look at a frame (assign-runs.ts), in their words. */
export const REVIEW_LABEL: Record<string, string> = {
  unreadable: "could not be read",
  no_capture_time: "no capture time",
  several_cards: "several cards in one frame",
  unknown_card: "card not on the roster",
  before_first_card: "before the first card",
  face_disagrees: "face looks like another child",
};

export const isRunning = (t: Pick<SortTask, "status"> | undefined) => t?.status === "queued" || t?.status === "running";
