import { engineConfig } from "./engine-config";
import { EnginePool } from "./engine-pool";
import { EDGE_SOFTNESS, type BgRemovalOptions, type BgRemovalResult } from "./types";
import { countPeople, mayHoldSeveral, type FaceBox } from "./count-people";
import { detectFaces } from "@/lib/engines/ml/faces";

export type { SubjectType, BgRemovalOptions, BgRemovalResult } from "./types";
export type { CutoutQuality, DoubtfulRegion } from "./cutout-quality";
export { SUBJECT_TYPES, OUTPUT_BACKGROUNDS, EDGE_SOFTNESS } from "./types";
export { ImageInputError, isImageInputError } from "./image-input-error";
export { PROVIDER as BG_REMOVAL_PROVIDER } from "./provider";

// One pool per process. Next.js may load this module more than once (the
// instrumentation hook and each route are separate bundles), and every copy must
// share the same workers, or each would hold its own 2 GB model and its own limit.
const POOL_KEY = Symbol.for("print-studio.background-removal.pool");
type Holder = { [POOL_KEY]?: Promise<EnginePool> };

function pool(): Promise<EnginePool> {
  const holder = globalThis as Holder;
  holder[POOL_KEY] ??= (async () => {
    // sharp must be loaded by the main thread before any worker loads it: its
    // shared libraries then outlive the workers (sharp's documented requirement on glibc).
    await import("sharp");
    return new EnginePool(engineConfig());
  })();
  return holder[POOL_KEY];
}

/**
 * Removes the background of one image (JPEG, PNG, WebP, TIFF, GIF or AVIF) and
 * returns a PNG at the image's full, upright size. Queued behind the per-process
 * concurrency limit; the work runs in a worker thread.
 *
 * Throws ImageInputError (a message for the customer) for a file that is not a
 * readable image, is damaged, or is over the pixel limit; any other error is the
 * engine's. An aborted signal rejects with its reason: a queued job is dropped, a
 * running one finishes in the background and its result is discarded.
 */
export async function removeBackground(input: Buffer, opts: BgRemovalOptions, signal?: AbortSignal): Promise<BgRemovalResult> {
  validateOptions(opts);
  // People who touch are one region of the person mask: their faces tell them apart. The face
  // detector runs (in its own worker) only when a kept region could hold more than one person
  // (count-people.ts: two heads on its outline, or much wider than high); a lone person's
  // region counts one without it. BG_REMOVAL_COUNT_FACES=always: beside every person cut-out,
  // whatever its regions (as before that test; for the benches).
  const { countFaces } = engineConfig();
  const early = countFaces === "always" && opts.subjectType === "person" ? facesOf(input) : null;
  const { peopleMap, ...result } = await (await pool()).run(input, opts, signal);
  if (!countFaces || !peopleMap || result.quality.peopleKept === null) return result;
  if (countFaces !== "always" && !mayHoldSeveral(peopleMap)) return result;
  const t0 = performance.now();
  const faces = await (early ?? facesOf(input));
  result.timingsMs.faces = Math.round(performance.now() - t0);
  if (!faces) return result;
  return { ...result, quality: { ...result.quality, peopleKept: countPeople(peopleMap, faces.boxes, faces) } };
}

/** The faces' boxes in the upright photo, or null when the face engine cannot say (the count then stays the regions'). */
async function facesOf(input: Buffer): Promise<{ boxes: FaceBox[]; width: number; height: number } | null> {
  try {
    const found = await detectFaces(input);
    return { boxes: found.faces.map((f) => f.box), width: found.width, height: found.height };
  } catch (err) {
    // The cause too: the face worker's own failure is what tells why (seen in the production server's e2e run, not yet explained).
    const cause = err instanceof Error && err.cause instanceof Error ? ` (cause: ${err.cause.message})` : "";
    console.warn("[bg-remove] faces not counted:", err instanceof Error ? `${err.message}${cause}` : err);
    return null;
  }
}

/**
 * Starts the workers, loads the models and runs one tiny image through each.
 * Idempotent. `atServerStart`: only when BG_REMOVAL_KEEP_WARM is on; otherwise
 * the first job loads the models, so an idle server stays small.
 */
export async function warmUpBackgroundRemoval({ atServerStart = false }: { atServerStart?: boolean } = {}): Promise<void> {
  if (atServerStart && !engineConfig().keepWarm) return;
  await (await pool()).warmUp();
}

/** Engine workers alive in this process (tests, the memory benchmark). */
export async function liveBackgroundRemovalWorkers(): Promise<number> {
  const current = (globalThis as Holder)[POOL_KEY];
  return current ? (await current).liveWorkers : 0;
}

/** Stops the workers (for scripts and tests that want to exit promptly); the next call starts new ones. */
export async function shutDownBackgroundRemoval(): Promise<void> {
  const holder = globalThis as Holder;
  const current = holder[POOL_KEY];
  delete holder[POOL_KEY];
  if (current) await (await current).close();
}

/** Programming errors (the HTTP layer validates the customer's fields before this). */
function validateOptions(opts: BgRemovalOptions): void {
  if (!Number.isInteger(opts.edgeSoftness) || opts.edgeSoftness < EDGE_SOFTNESS.min || opts.edgeSoftness > EDGE_SOFTNESS.max) {
    throw new RangeError(`edgeSoftness must be an integer from ${EDGE_SOFTNESS.min} to ${EDGE_SOFTNESS.max}, got ${opts.edgeSoftness}`);
  }
}
