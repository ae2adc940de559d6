import { z } from "zod";
import { parseEnv } from "@/lib/foundation/parse-env";

/**
 * FACE_SR_MAX_INPUT_MEGAPIXELS (default 0.3): crops up to this size get 2x
 * super-resolution when enhanced; larger ones are enlarged with Lanczos (the model
 * takes about 30 s per input megapixel on 2 cores, so 0.3 MP is about 10 s a crop).
 */
const schema = z.object({ FACE_SR_MAX_INPUT_MEGAPIXELS: z.coerce.number().min(0).max(10).default(0.3) });

export function srMaxInputPixels(env: Record<string, string | undefined> = process.env): number {
  return Math.round(parseEnv(schema, env, "super-resolution").FACE_SR_MAX_INPUT_MEGAPIXELS * 1e6);
}
