import { z } from "zod";

export const createApiKeyBody = z.strictObject({ name: z.string().trim().min(1, "Name the key.").max(100) });
export const apiKeyParams = z.object({ id: z.string().min(1).max(64) });

const ts = z.iso.datetime({ offset: true });
export const apiKeyResponse = z.object({ id: z.string(), name: z.string(), prefix: z.string(), created_at: ts, last_used_at: ts.nullable() });
/** POST /v1/api-keys: the only time the secret is shown. */
export const createdApiKeyResponse = apiKeyResponse.extend({ key: z.string() });
