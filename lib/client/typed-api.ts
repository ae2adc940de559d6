// The studio's typed client: the generated one (lib/client/api-client), same origin, session cookie.
import { createApiClient, type paths } from "@/lib/client/api-client";
import { ApiRequestError, fetchWithRetries } from "./api-fetch";

/** Sent through fetchWithRetries: a POST is retried with its Idempotency-Key (never charged twice). */
export const studioApi = createApiClient({ fetch: fetchWithRetries });

/** The success body, or the ApiRequestError the pages already show for failures. */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.response.status === 204) return undefined as T;
  if (result.error !== undefined || !result.response.ok) throw new ApiRequestError(result.response.status, (result.error ?? {}) as ApiRequestError["body"]);
  return result.data as T;
}

type Method = "get" | "post" | "put" | "patch" | "delete";
type SuccessJson<R> = R extends { 200: { content: { "application/json": infer J } } }
  ? J
  : R extends { 201: { content: { "application/json": infer J } } }
    ? J
    : R extends { 202: { content: { "application/json": infer J } } }
      ? J
      : never;

/**
 * The success body of a /v1 operation, from the generated OpenAPI types: pages name
 * their data by the route it comes from (`ApiResponse<"/v1/api-keys", "get">`), so a
 * change of the API's shape is a type error in the page that uses it.
 */
export type ApiResponse<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]> extends { responses: infer R } ? SuccessJson<R> : never;

/** The JSON body a /v1 operation takes: `ApiBody<"/v1/projects/{id}", "patch">`. */
export type ApiBody<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]> extends { requestBody?: { content: { "application/json": infer B } } } ? B : never;
