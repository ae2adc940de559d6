import type { BgRemovalOptions } from "./types";

/** Messages between the engine pool (main thread) and an engine worker. */
export type ToWorker =
  | { type: "job"; id: number; input: Uint8Array; opts: BgRemovalOptions; maxPixels: number }
  | { type: "warmup"; id: number }
  /** Release the models and exit (the pool ends an idle worker). */
  | { type: "release"; id: number };

export type FromWorker =
  | { type: "ready"; loadMs: number }
  | { type: "fatal"; message: string }
  | { type: "done"; id: number; png: Uint8Array; width: number; height: number; timingsMs: Record<string, number> }
  | { type: "error"; id: number; kind: "input" | "engine"; message: string };

export type WorkerData = { threads: number };
