import type { ApiResponse } from "@/lib/client/typed-api";

/** A key as GET /v1/api-keys lists it. */
export type ApiKey = ApiResponse<"/v1/api-keys", "get">["data"][number];

/** POST /v1/api-keys: the only response that carries the full key. */
export type CreatedApiKey = ApiResponse<"/v1/api-keys", "post">;

export const apiKeysQueryKey = ["api-keys"] as const;
