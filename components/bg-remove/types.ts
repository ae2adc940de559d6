import type { ApiBody, ApiResponse } from "@/lib/client/typed-api";
import { BG_REMOVE_DEFAULTS } from "@/lib/services/bg-remove/values";

/** The job options the page sends with every image: the POST body without the URL. */
export type BgRemoveOptions = Required<Omit<ApiBody<"/v1/services/bg-remove", "post">, "image_url">>;

export const DEFAULT_OPTIONS: BgRemoveOptions = { ...BG_REMOVE_DEFAULTS };

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
