import os from "node:os";
import { Worker } from "node:worker_threads";
import { z } from "zod";
import { parseEnv } from "@/lib/foundation/parse-env";
import { serialWorker, type WorkerFailure } from "@/lib/engines/workers/serial-worker";
import { startWorker } from "@/lib/engines/workers/start-worker";
import { transferable } from "@/lib/engines/workers/transferable";
import type { CardWorkerMessage, CardWorkerReply } from "./card-worker";
import type { FrameReading } from "./read-frame";

export type { FrameReading } from "./read-frame";

/** The frame cannot be decoded as an image (damaged, truncated, too large): the photo's fault, not ours. */
export class FrameUnreadableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FrameUnreadableError";
  }
}

/** By name as well as by class: the singleton may have been started by another server bundle. */
export function isFrameUnreadableError(err: unknown): err is FrameUnreadableError {
  return err instanceof FrameUnreadableError || (err instanceof Error && err.name === "FrameUnreadableError");
}

let settings: { timeoutMs: number; wholeEdge: number; tileEdge: number; threads: number } | undefined;

/** CARD_READER_* settings, read once. */
function cardReaderConfig() {
  if (!settings) {
    const env = parseEnv(
      z.object({
        CARD_READER_TIMEOUT_SECONDS: z.coerce.number().positive().default(60),
        CARD_READER_WHOLE_EDGE: z.coerce.number().int().min(500).max(10000).default(2000),
        CARD_READER_TILE_EDGE: z.coerce.number().int().min(500).max(10000).default(4096),
        /** Worker threads reading frames side by side (each holds one decoded frame, ~50–150 MB for 12 MP). */
        CARD_READER_THREADS: z.coerce.number().int().min(1).max(16).default(Math.min(2, os.availableParallelism())),
      }),
      process.env,
      "card reader",
    );
    settings = { timeoutMs: env.CARD_READER_TIMEOUT_SECONDS * 1000, wholeEdge: env.CARD_READER_WHOLE_EDGE, tileEdge: env.CARD_READER_TILE_EDGE, threads: env.CARD_READER_THREADS };
  }
  return settings;
}

/** The one place the card reader's thread is started (how: lib/engines/workers/start-worker.ts). */
function spawnCardWorker(): Worker {
  return startWorker("lib/engines/imaging/card-reader/card-worker.ts", () => new Worker(new URL("./card-worker.ts", import.meta.url)));
}

type Engine = ReturnType<typeof serialWorker<Omit<CardWorkerMessage, "id">, CardWorkerReply>>;
/** One serial worker per thread, kept on globalThis by key; a frame goes to the least busy one. */
const engines: Engine[] = [];
const busy: number[] = [];

function leastBusy(threads: number): number {
  while (engines.length < threads) {
    engines.push(serialWorker<Omit<CardWorkerMessage, "id">, CardWorkerReply>(`__cardReader${engines.length}`, spawnCardWorker));
    busy.push(0);
  }
  let best = 0;
  for (let i = 1; i < threads; i++) if (busy[i]! < busy[best]!) best = i;
  return best;
}

/** How many frames the reader takes at once (its threads): callers read that many side by side. */
export const cardReaderThreads = () => cardReaderConfig().threads;

/**
 * Every QR code in a photo and when it was taken (EXIF), read in the card
 * reader's worker thread with ZXing-C++ (zxing-wasm). Throws
 * FrameUnreadableError for a file that is not a decodable image, and a plain
 * Error when the engine fails.
 */
export async function readCards(bytes: Uint8Array): Promise<FrameReading> {
  const cfg = cardReaderConfig();
  const { bytes: copy, transfer } = transferable(bytes);
  let reply: CardWorkerReply;
  const at = leastBusy(cfg.threads);
  busy[at]!++;
  try {
    reply = await engines[at]!.request({ bytes: copy, limits: { wholeEdge: cfg.wholeEdge, tileEdge: cfg.tileEdge } }, { timeoutMs: cfg.timeoutMs, transfer });
  } catch (err) {
    if ((err as WorkerFailure).kind === "timeout") throw new Error(`Reading the cards took longer than ${Math.round(cfg.timeoutMs / 1000)} s and was stopped.`);
    throw new Error("The card reader stopped unexpectedly.", { cause: err });
  } finally {
    busy[at]!--;
  }
  if (reply.ok) return reply.result;
  if (reply.unreadable) throw new FrameUnreadableError("The photo cannot be decoded: the file is damaged or truncated.");
  throw new Error("The card reader failed on our side.", { cause: reply.error });
}

/** Stops the reader's threads (tests, shutdown); the next frame starts new ones. */
export async function shutDownCardReader(): Promise<void> {
  await Promise.all(engines.map((e) => e.shutDown()));
}
