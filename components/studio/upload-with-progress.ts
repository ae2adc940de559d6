import { ApiRequestError } from "@/lib/client/api-fetch";

/**
 * POSTs a form with XMLHttpRequest, because fetch cannot report upload
 * progress. Same-origin, so the studio session cookie authenticates it.
 */
export function uploadWithProgress<T>(path: string, form: FormData, onProgress: (fraction: number) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", path);
    xhr.responseType = "json";
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      const body = (xhr.response ?? {}) as Record<string, unknown>;
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as T);
      else reject(new ApiRequestError(xhr.status, body));
    };
    xhr.onerror = () => reject(new Error("The upload was interrupted: check the connection and try again."));
    xhr.send(form);
  });
}
