import { z } from "zod";

export const createApiKeyBody = z.strictObject({ name: z.string().trim().min(1, "Name the key.").max(100) });
export const apiKeyParams = z.object({ id: z.string().min(1).max(64) });
