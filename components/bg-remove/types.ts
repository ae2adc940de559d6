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

/** GET /v1/services/bg-remove/{jobId} */
export type BgRemoveJob = {
  job_id: string;
  status: "pending" | "processing" | "completed" | "failed";
  output_url: string | null;
  /** The same PNG served as an attachment. */
  download_url?: string | null;
  tokens_deducted: number;
  wallet_transaction_id: string;
  provider: string;
  created_at: string;
  completed_at?: string | null;
  error_message?: string | null;
  output_background?: "transparent" | "white";
};

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
