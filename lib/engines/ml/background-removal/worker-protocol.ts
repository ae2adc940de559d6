import type { BgRemovalOptions } from "./types";
import type { CutoutQuality } from "./cutout-quality";
import type { PeopleMap } from "./count-people";

/** Messages between the engine pool (main thread) and an engine worker. */
export type ToWorker =
  | { type: "job"; id: number; input: Uint8Array; opts: BgRemovalOptions; maxPixels: number }
  | { type: "warmup"; id: number }
  /** Release the models and exit (the pool ends an idle worker). */
  | { type: "release"; id: number };

export type FromWorker =
  | { type: "ready"; loadMs: number }
  | { type: "fatal"; message: string }
  | { type: "done"; id: number; png: Uint8Array; width: number; height: number; timingsMs: Record<string, number>; quality: CutoutQuality; peopleMap?: PeopleMap }
  | { type: "error"; id: number; kind: "input" | "engine"; message: string };

/**
 * `layout`: onnxruntime's full graph optimisation (NCHWc layout, weights re-packed): ~15 %
 * faster, but ~330 MB more held while loaded and ~270 MB more at a run's peak; the engine
 * turns it on only when kept warm (speed chosen over memory). See isnet-model.ts.
 */
export type WorkerData = { threads: number; layout: boolean; /** ISNet mattes remembered by input (matte-memo.ts); 0: none. */ matteCache: number };
