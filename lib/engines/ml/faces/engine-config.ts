import { z } from "zod";
import { parseEnv } from "@/lib/foundation/parse-env";

/**
 * The face engine's settings, from the environment (read at first use):
 * - FACE_MAX_MEGAPIXELS (default 60): larger photos are refused before decoding.
 * - FACE_DETECT_LONG_EDGE (default 1024): the photo is scaled to this for detection.
 * - FACE_MIN_SCORE (default 0.25): faces scored lower are dropped (children in group
 *   photos score 0.3 to 0.5 with this model, so the bar is low; size filters the rest).
 * - FACE_EMBED_LONG_EDGE (default 3072): for embeddings the photo is decoded at up to
 *   this, and each face is cut from it (a face in a 30-child group photo keeps its detail).
 * - FACE_TIMEOUT_SECONDS (default 60): one detection longer than this is stopped.
 */
const schema = z.object({
  FACE_MAX_MEGAPIXELS: z.coerce.number().positive().max(500).default(60),
  FACE_DETECT_LONG_EDGE: z.coerce.number().int().min(256).max(4096).default(1024),
  FACE_MIN_SCORE: z.coerce.number().min(0).max(1).default(0.25),
  FACE_EMBED_LONG_EDGE: z.coerce.number().int().min(512).max(8192).default(3072),
  FACE_TIMEOUT_SECONDS: z.coerce.number().positive().max(3600).default(60),
});

export type FaceEngineConfig = { maxPixels: number; detectLongEdge: number; embedLongEdge: number; minScore: number; timeoutMs: number };

export function faceEngineConfig(env: Record<string, string | undefined> = process.env): FaceEngineConfig {
  const e = parseEnv(schema, env, "face engine");
  return { maxPixels: Math.round(e.FACE_MAX_MEGAPIXELS * 1e6), detectLongEdge: e.FACE_DETECT_LONG_EDGE, embedLongEdge: e.FACE_EMBED_LONG_EDGE, minScore: e.FACE_MIN_SCORE, timeoutMs: e.FACE_TIMEOUT_SECONDS * 1000 };
}
