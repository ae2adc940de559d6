import { z } from "zod";

export const usageQuery = z.strictObject({ days: z.coerce.number().int().min(1).max(366).default(30) });
