import { uploadWithProgress } from "@/lib/client/upload-with-progress";
import { MAX_UPLOAD_BYTES, MAX_UPLOAD_FILES } from "@/lib/services/face-crop/limits";
import type { QueuedAnswer, SyncAnswer } from "./types";

/** The server's limits; the bytes kept 20 MB under, for the multipart framing around the files. */
export const BATCH_MAX_FILES = MAX_UPLOAD_FILES;
export const BATCH_MAX_BYTES = MAX_UPLOAD_BYTES - 20 * 1024 * 1024;

/** Splits a picture day into requests the upload endpoint accepts. */
export function splitIntoBatches(files: File[]): File[][] {
  const out: File[][] = [];
  let cur: File[] = [];
  let bytes = 0;
  for (const f of files) {
    if (cur.length && (cur.length >= BATCH_MAX_FILES || bytes + f.size > BATCH_MAX_BYTES)) {
      out.push(cur);
      cur = [];
      bytes = 0;
    }
    cur.push(f);
    bytes += f.size;
  }
  if (cur.length) out.push(cur);
  return out;
}

/** POST /v1/services/studio/face-crop/upload with upload progress (fetch has none): 200 cropped at once, or 202 a task. */
export async function uploadBatch(files: File[], icpType: string, enhance: boolean, onProgress: (sent: number, total: number) => void): Promise<{ status: number; body: SyncAnswer | QueuedAnswer }> {
  const form = new FormData();
  form.append("icp_type", icpType);
  form.append("enhance", String(enhance));
  for (const f of files) form.append("file[]", f, f.name);
  const { status, body } = await uploadWithProgress("/v1/services/studio/face-crop/upload", {}, form, (fraction) => onProgress(fraction, 1));
  // The helper types the 200 answer; a 202 carries the task instead (QueuedAnswer).
  return { status, body: body as SyncAnswer | QueuedAnswer };
}
