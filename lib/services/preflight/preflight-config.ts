import { z } from "zod";
import { parseEnv } from "@/lib/foundation/parse-env";

/**
 * Preflight's own settings, read from the environment once (same rules as
 * lib/foundation/config.ts: a wrong value stops with the variable named).
 */
const schema = z.object({
  /** Full checks per calendar month (UTC) by plan. */
  PREFLIGHT_QUOTA_FREE: z.coerce.number().int().min(0).default(100),
  PREFLIGHT_QUOTA_PREMIUM: z.coerce.number().int().min(0).default(5000),
  /** Longest one analysis may run before its worker is stopped. */
  PREFLIGHT_TIMEOUT_MS: z.coerce.number().int().positive().default(60_000),
  /** Largest raster decoded (width x height); libvips' own default limit. */
  PREFLIGHT_MAX_PIXELS: z.coerce.number().int().positive().default(268_402_689),
  PREFLIGHT_MAX_PDF_PAGES: z.coerce.number().int().positive().default(5000),
  /** JavaScript heap per analysis worker; pdf-lib holds the parsed document there. */
  PREFLIGHT_WORKER_MEMORY_MB: z.coerce.number().int().min(64).default(1024),
  /** Analyses running at once; more wait their turn. */
  PREFLIGHT_WORKERS: z.coerce.number().int().min(1).max(16).default(2),
});

export type PreflightConfig = z.infer<typeof schema>;
let cached: PreflightConfig | undefined;

export function preflightConfig(): PreflightConfig {
  if (!cached) {
    cached = parseEnv(schema, process.env, "preflight");
  }
  return cached;
}

/** For tests that change the environment. */
export function resetPreflightConfig(): void {
  cached = undefined;
}
