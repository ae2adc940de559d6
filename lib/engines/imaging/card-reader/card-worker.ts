// Worker-thread entry for reading QR cards in photos (started by read-cards.ts):
// decoding a 12 MP frame and running ZXing over it takes a CPU for a fraction
// of a second, which never blocks the server's event loop here.
import { parentPort } from "node:worker_threads";
import { readFrame, type FrameReading, type ReadLimits } from "./read-frame";

export type CardWorkerMessage = { id: number; bytes: Uint8Array; limits: ReadLimits };
export type CardWorkerReply = { id: number; ok: true; result: FrameReading } | { id: number; ok: false; unreadable: boolean; error: string };

parentPort?.on("message", async (msg: CardWorkerMessage) => {
  try {
    parentPort!.postMessage({ id: msg.id, ok: true, result: await readFrame(msg.bytes, msg.limits) } satisfies CardWorkerReply);
  } catch (err) {
    // sharp's decoding errors are the frame's fault (damaged file); anything else is ours.
    const message = String((err as Error)?.message ?? err);
    const unreadable = /Input buffer|unsupported image format|VipsJpeg|corrupt|premature|pixel limit|bad seek|Invalid/i.test(message);
    parentPort!.postMessage({ id: msg.id, ok: false, unreadable, error: String((err as Error)?.stack ?? err) } satisfies CardWorkerReply);
  }
});
