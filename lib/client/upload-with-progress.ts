import type { paths } from "@/lib/client/api-client";
import { ApiRequestError } from "./api-fetch";
import type { ApiResponse } from "./typed-api";

/** The /v1 paths that take a POST (multipart uploads among them). */
type PostPath = { [P in keyof paths]: paths[P] extends { post: object } ? P : never }[keyof paths];
type PathParams<P extends string> = P extends `${string}{${infer K}}${infer Rest}` ? { [k in K]: string } & PathParams<Rest> : unknown;

/**
 * POSTs a form with XMLHttpRequest, because fetch cannot report upload progress
 * (the typed client sends through fetch). The path and its answer are the OpenAPI
 * document's, as with the typed client. Same origin: the session cookie authenticates it.
 */
export function uploadWithProgress<P extends PostPath>(path: P, params: PathParams<P>, form: FormData, onProgress: (fraction: number) => void, headers: Record<string, string> = {}): Promise<{ status: number; body: ApiResponse<P, "post"> }> {
  const url = path.replace(/\{(\w+)\}/g, (_, k: string) => encodeURIComponent((params as Record<string, string>)[k]!));
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url);
    xhr.withCredentials = true;
    for (const [k, v] of Object.entries(headers)) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      let body: unknown = {};
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // Not JSON (a proxy's error page): the status says what happened.
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve({ status: xhr.status, body: body as ApiResponse<P, "post"> });
      else reject(new ApiRequestError(xhr.status, body as ApiRequestError["body"]));
    };
    xhr.onerror = () => reject(new Error("The upload was interrupted: check the connection and try again."));
    xhr.send(form);
  });
}
