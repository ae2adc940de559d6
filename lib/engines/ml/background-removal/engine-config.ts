import os from "node:os";
import { z } from "zod";
import { parseEnv } from "@/lib/foundation/parse-env";

/**
 * The engine's settings, from the environment (read at first use):
 * - BG_REMOVAL_MAX_MEGAPIXELS (default 50): larger images are refused before decoding.
 * - BG_REMOVAL_WORKERS (default 1 on up to 3 cores, then half the cores): worker
 *   threads, each with its own model (~0.3 GB loaded, ~0.9 GB while running; see
 *   engine-pool.ts), so also the number of images processed at once per process, within
 *   the engines' shared memory budget (ENGINE_MEMORY_MB, lib/engines/workers/engine-memory.ts).
 * - BG_REMOVAL_THREADS (default: cores - 1 spread over the workers, at least 1):
 *   onnxruntime threads per worker. One core is left to the HTTP server.
 * - BG_REMOVAL_KEEP_WARM (default false): load the models when the server starts and
 *   keep them loaded, with onnxruntime's full graph optimisation (isnet-model.ts: faster,
 *   more memory). Off, the first job loads them and an idle engine gives its
 *   memory back: speed for those who have the RAM, memory for small servers.
 * - BG_REMOVAL_IDLE_SECONDS (default 60): without KEEP_WARM, a worker idle this long
 *   is ended (onnxruntime session and TensorFlow.js model released, thread stopped).
 * - BG_REMOVAL_MATTE_CACHE (default 2): ISNet mattes each worker remembers by their input
 *   (4 MB each), so the same photo again with other options skips the model (matte-memo.ts); 0: off.
 * - BG_REMOVAL_COUNT_FACES (default true): people kept are told apart by their faces (the face
 *   engine's worker, lib/engines/ml/faces, after the cut-out, only when a kept region could hold
 *   more than one person: count-people.ts); false counts regions of the person mask only (people
 *   who touch are one), without the face engine's memory; `always`: the face detector runs beside
 *   every person cut-out, whatever its regions (as before that test; for the benches).
 */
const schema = z.object({
  BG_REMOVAL_MAX_MEGAPIXELS: z.coerce.number().positive().max(500).default(50),
  BG_REMOVAL_WORKERS: z.coerce.number().int().min(1).max(32).optional(),
  BG_REMOVAL_THREADS: z.coerce.number().int().min(1).max(64).optional(),
  BG_REMOVAL_KEEP_WARM: z.enum(["true", "false", "1", "0", "on", "off"]).default("false"),
  BG_REMOVAL_IDLE_SECONDS: z.coerce.number().min(0).max(86_400).default(60),
  BG_REMOVAL_MATTE_CACHE: z.coerce.number().int().min(0).max(16).default(2),
  BG_REMOVAL_COUNT_FACES: z.enum(["true", "false", "1", "0", "on", "off", "always"]).default("true"),
});

export type EngineConfig = { maxPixels: number; workers: number; threads: number; keepWarm: boolean; idleMs: number; matteCache: number; countFaces: false | true | "always" };

export function engineConfig(env: Record<string, string | undefined> = process.env): EngineConfig {
  const e = parseEnv(schema, env, "background removal");
  const cores = os.availableParallelism();
  const workers = e.BG_REMOVAL_WORKERS ?? (cores <= 3 ? 1 : Math.floor(cores / 2));
  const threads = e.BG_REMOVAL_THREADS ?? Math.max(1, Math.floor((cores - 1) / workers));
  return {
    maxPixels: Math.round(e.BG_REMOVAL_MAX_MEGAPIXELS * 1_000_000),
    workers,
    threads,
    keepWarm: ["true", "1", "on"].includes(e.BG_REMOVAL_KEEP_WARM),
    idleMs: Math.round(e.BG_REMOVAL_IDLE_SECONDS * 1000),
    matteCache: e.BG_REMOVAL_MATTE_CACHE,
    countFaces: e.BG_REMOVAL_COUNT_FACES === "always" ? "always" : ["true", "1", "on"].includes(e.BG_REMOVAL_COUNT_FACES),
  };
}
