import type { ApiResponse } from "@/lib/client/typed-api";

export const BG_REMOVE_COST = 150;

export const SUBJECT_TYPES = [
  { value: "auto", label: "Automatic" },
  { value: "person", label: "Person" },
  { value: "product", label: "Product" },
  { value: "logo", label: "Logo" },
  { value: "text", label: "Text" },
  { value: "hair_heavy", label: "Lots of hair or fur" },
] as const;

export type BgRemoveOptions = {
  subject_type: (typeof SUBJECT_TYPES)[number]["value"];
  edge_softness: number;
  high_detail_mode: boolean;
  output_background: "transparent" | "white";
};

export const DEFAULT_OPTIONS: BgRemoveOptions = { subject_type: "auto", edge_softness: 3, high_detail_mode: false, output_background: "transparent" };

/** GET /v1/services/bg-remove/{jobId} (the create answer is the same job, as it stands at acceptance). */
export type BgRemoveJob = ApiResponse<"/v1/services/bg-remove/{jobId}", "get">;

/** One image on the page, from drop to result. */
export type ImageItem = {
  localId: string;
  file: File;
  previewUrl: string;
  /** Before the job exists: waiting to be sent, uploading, or refused. */
  stage: "ready" | "sending" | "sent" | "refused";
  jobId?: string;
  error?: string;
  options?: BgRemoveOptions;
};

export const jobQueryKey = (jobId: string) => ["bg-remove", "job", jobId] as const;
