import { ApiRequestError } from "@/lib/client/api-fetch";
import type { QueuedAnswer, SyncAnswer } from "./types";

/** Server limits (lib/services/face-crop/limits.ts), kept a little under. */
export const BATCH_MAX_FILES = 200;
export const BATCH_MAX_BYTES = 380 * 1024 * 1024;

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

/** POST /v1/services/studio/face-crop/upload with upload progress (fetch has none). */
export function uploadBatch(files: File[], icpType: string, enhance: boolean, onProgress: (sent: number, total: number) => void): Promise<{ status: number; body: SyncAnswer | QueuedAnswer }> {
  const form = new FormData();
  form.append("icp_type", icpType);
  form.append("enhance", String(enhance));
  for (const f of files) form.append("file[]", f, f.name);
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/v1/services/studio/face-crop/upload");
    xhr.withCredentials = true;
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded, e.total);
    xhr.onerror = () => reject(new Error("The upload was interrupted; check the connection and send again."));
    xhr.onload = () => {
      let body: unknown = {};
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        /* not JSON */
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve({ status: xhr.status, body: body as SyncAnswer | QueuedAnswer });
      else reject(new ApiRequestError(xhr.status, body as { message?: string }));
    };
    xhr.send(form);
  });
}
