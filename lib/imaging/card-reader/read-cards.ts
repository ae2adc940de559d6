import { Worker } from "node:worker_threads";
import { z } from "zod";
import { parseEnv } from "@/lib/parse-env";
import { serialWorker, type WorkerFailure } from "@/lib/workers/serial-worker";
import { startWorker } from "@/lib/workers/start-worker";
import { transferable } from "@/lib/workers/transferable";
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

let settings: { timeoutMs: number; wholeEdge: number; tileEdge: number } | undefined;

/** CARD_READER_* settings, read once. */
function cardReaderConfig() {
  if (!settings) {
    const env = parseEnv(
      z.object({
        CARD_READER_TIMEOUT_SECONDS: z.coerce.number().positive().default(60),
        CARD_READER_WHOLE_EDGE: z.coerce.number().int().min(500).max(10000).default(2400),
        CARD_READER_TILE_EDGE: z.coerce.number().int().min(500).max(10000).default(4096),
      }),
      process.env,
      "card reader",
    );
    settings = { timeoutMs: env.CARD_READER_TIMEOUT_SECONDS * 1000, wholeEdge: env.CARD_READER_WHOLE_EDGE, tileEdge: env.CARD_READER_TILE_EDGE };
  }
  return settings;
}

/** The one place the card reader's thread is started (how: lib/workers/start-worker.ts). */
function spawnCardWorker(): Worker {
  return startWorker("lib/imaging/card-reader/card-worker.ts", () => new Worker(new URL("./card-worker.ts", import.meta.url)));
}

const engine = serialWorker<Omit<CardWorkerMessage, "id">, CardWorkerReply>("__cardReader", spawnCardWorker);

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
  try {
    reply = await engine.request({ bytes: copy, limits: { wholeEdge: cfg.wholeEdge, tileEdge: cfg.tileEdge } }, { timeoutMs: cfg.timeoutMs, transfer });
  } catch (err) {
    if ((err as WorkerFailure).kind === "timeout") throw new Error(`Reading the cards took longer than ${Math.round(cfg.timeoutMs / 1000)} s and was stopped.`);
    throw new Error("The card reader stopped unexpectedly.", { cause: err });
  }
  if (reply.ok) return reply.result;
  if (reply.unreadable) throw new FrameUnreadableError("The photo cannot be decoded: the file is damaged or truncated.");
  throw new Error("The card reader failed on our side.", { cause: reply.error });
}

/** Stops the reader's thread (tests, shutdown); the next frame starts a new one. */
export const shutDownCardReader = () => engine.shutDown();
