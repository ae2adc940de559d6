import { Worker } from "node:worker_threads";
import { startWorker } from "@/lib/engines/workers/start-worker";
import { serialWorker, type WorkerFailure } from "@/lib/engines/workers/serial-worker";
import { transferable } from "@/lib/engines/workers/transferable";
import { engineIdleMs } from "@/lib/engines/workers/engine-idle";
import type { SrReply, SrRequest } from "./sr-worker";

/** The one place the super-resolution worker is started (same pattern as lib/engines/ml/faces/detect-faces.ts). */
export function spawnSrWorker(): Worker {
  return startWorker("lib/engines/ml/super-resolution/sr-worker.ts", () => new Worker(new URL("./sr-worker.ts", import.meta.url)));
}

// One worker (one model) per process, one crop at a time. Memory measured in one process
// (a 200 × 250 crop, two runs): ~130 MB once loaded, ~30 MB more while it runs.
const engine = serialWorker<Omit<SrRequest, "id">, SrReply>("__srEngine", spawnSrWorker, engineIdleMs, {
  spec: { name: "super-resolution", heldMb: 130, runMb: 30 },
});

/**
 * 2x super-resolution (ESRGAN-slim) of RGB pixels in a worker thread, one crop at
 * a time. About 30 s per input megapixel on these 2 cores: a background step only.
 */
export async function superResolve2x(rgb: Uint8Array, width: number, height: number, timeoutMs = 300_000): Promise<Uint8Array> {
  const input = transferable(rgb); // the caller keeps its buffer
  let reply: SrReply;
  try {
    reply = await engine.request({ rgb: input.bytes, width, height }, { timeoutMs, transfer: input.transfer });
  } catch (err) {
    if ((err as WorkerFailure).kind === "timeout") throw new Error(`super-resolution took longer than ${Math.round(timeoutMs / 1000)} s`);
    throw err;
  }
  if (!reply.ok) throw new Error(`super-resolution failed: ${reply.error}`);
  return reply.rgb;
}

export function shutDownSuperResolution(): Promise<void> {
  return engine.shutDown();
}
