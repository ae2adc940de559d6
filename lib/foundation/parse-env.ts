import type { z } from "zod";

/**
 * Parses environment variables with a zod schema. Every settings module (the
 * app's in lib/foundation/config.ts, each engine's beside its engine) goes through here, so
 * a wrong value stops the process with the variable named, the same way everywhere.
 */
export function parseEnv<S extends z.ZodType>(schema: S, env: Record<string, string | undefined>, area: string): z.infer<S> {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Invalid ${area} configuration: ${fields}`);
  }
  return parsed.data;
}
