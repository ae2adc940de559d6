// Worker-thread entry for super-resolution (started by super-resolve.ts): seconds
// of CPU per crop, never on a request's thread; the model is loaded once per thread.
import { parentPort } from "node:worker_threads";
import { loadSrModel, upscale2x, type SrModel } from "./sr-model";
import { transferable } from "@/lib/engines/workers/transferable";

export type SrRequest = { id: number; rgb: Uint8Array; width: number; height: number };
export type SrReply = { id: number; ok: true; rgb: Uint8Array } | { id: number; ok: false; error: string };

let model: Promise<SrModel> | null = null;

parentPort?.on("message", async (req: SrRequest) => {
  try {
    model ??= loadSrModel();
    const rgb = transferable(await upscale2x(await model, req.rgb, req.width, req.height));
    parentPort!.postMessage({ id: req.id, ok: true, rgb: rgb.bytes } satisfies SrReply, rgb.transfer);
  } catch (err) {
    parentPort!.postMessage({ id: req.id, ok: false, error: String((err as Error)?.stack ?? err) } satisfies SrReply);
  }
});
