/** Shapes returned by /v1/api-keys. */
export type ApiKey = {
  id: string;
  name: string;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
};

/** POST /v1/api-keys: the only response that carries the full key. */
export type CreatedApiKey = ApiKey & { key: string };

export const apiKeysQueryKey = ["api-keys"] as const;
