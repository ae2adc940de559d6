// The studio's typed client: the generated one (lib/api-client), same origin, session cookie.
import { createApiClient } from "@/lib/api-client";
import { ApiRequestError } from "./api-fetch";

export const studioApi = createApiClient();

/** The success body, or the ApiRequestError the pages already show for failures. */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.error !== undefined || !result.response.ok) throw new ApiRequestError(result.response.status, (result.error ?? {}) as ApiRequestError["body"]);
  return result.data as T;
}
