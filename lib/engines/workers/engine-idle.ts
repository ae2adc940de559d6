import { z } from "zod";
import { parseEnv } from "@/lib/foundation/parse-env";

/**
 * How long the face and super-resolution engines (one worker thread each,
 * lib/engines/workers/serial-worker.ts) stay loaded without work: an idle server gives
 * their memory back (~350 MB for faces), and the next photo loads them again
 * (about half a second). Background removal has its own pair of settings
 * (BG_REMOVAL_KEEP_WARM, BG_REMOVAL_IDLE_SECONDS).
 *
 * - ENGINE_KEEP_WARM (default false): never end them for idleness.
 * - ENGINE_IDLE_SECONDS (default 60): otherwise, end one idle this long.
 */
const schema = z.object({
  ENGINE_KEEP_WARM: z.enum(["true", "false", "1", "0", "on", "off"]).default("false"),
  ENGINE_IDLE_SECONDS: z.coerce.number().min(1).max(86_400).default(60),
});

/** Milliseconds of idleness that end an engine worker, or null to keep it. */
export function engineIdleMs(env: Record<string, string | undefined> = process.env): number | null {
  const e = parseEnv(schema, env, "engines");
  return ["true", "1", "on"].includes(e.ENGINE_KEEP_WARM) ? null : Math.round(e.ENGINE_IDLE_SECONDS * 1000);
}
