export type CropBox = { x: number; y: number; w: number; h: number; angle: number };

export type Pt = { x: number; y: number };

export type CropResult = {
  result_id: string;
  filename: string;
  icp_type: string;
  face_box: { x: number; y: number; w: number; h: number };
  output_urls: { original: string; medium: string };
  faces_found: number;
  landmarks: { left_eye: Pt; right_eye: Pt; chin: Pt; crown: Pt };
  crop_box: CropBox;
  edge: "none" | "shifted" | "padded" | "zoomed";
  padded: boolean;
  padding: { top: number; right: number; bottom: number; left: number };
  manual: boolean;
  enhancement: string;
  output_size: { width: number; height: number };
  source: { url: string; width: number; height: number };
};
export type FailedResult = { result_id: string; filename: string; error: { code: string; message: string } };
export type AnyResult = CropResult | FailedResult;
export const isFailed = (r: AnyResult): r is FailedResult => "error" in r;

export type SyncAnswer = { task_id: string; results: AnyResult[]; tokens_deducted: number; wallet_transaction_id: string };
export type QueuedAnswer = { task_id: string; status: "queued"; total_files: number; tokens_deducted: number; wallet_transaction_id: string };
export type Task = {
  task_id: string;
  status: "queued" | "running" | "completed" | "failed";
  total_files: number;
  progress: { current: number; total: number; percentage: number };
  tokens_deducted: number;
  tokens_refunded: number;
  error_message: string | null;
  results?: AnyResult[];
};

export const taskKey = (taskId: string) => ["face-crop", "task", taskId] as const;
