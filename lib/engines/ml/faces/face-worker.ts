// Worker-thread entry for face detection and embeddings (started by detect-faces.ts). The models
// are loaded once per thread and every photo is decoded and detected here, so
// the request's thread never runs inference.
import { parentPort } from "node:worker_threads";
import { FaceInputError } from "./face-input-error";
import { detectInThread, faceModel, selfieModel, type DetectRequest } from "./detect-in-thread";
import { describeInThread, recognitionNet, type DescribeRequest } from "./describe-in-thread";

export type WorkerMessage =
  | { id: number; kind: "detect"; req: DetectRequest }
  | { id: number; kind: "describe"; req: DescribeRequest }
  | { id: number; kind: "warm"; embed?: boolean };
export type WorkerReply =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; input?: { code: FaceInputError["code"]; message: string }; error?: string };

parentPort?.on("message", async (msg: WorkerMessage) => {
  try {
    const result =
      msg.kind === "warm" ? (await faceModel(), await selfieModel(), msg.embed ? await recognitionNet() : null, null) : msg.kind === "describe" ? await describeInThread(msg.req) : await detectInThread(msg.req);
    parentPort!.postMessage({ id: msg.id, ok: true, result } satisfies WorkerReply);
  } catch (err) {
    if (err instanceof FaceInputError) parentPort!.postMessage({ id: msg.id, ok: false, input: { code: err.code, message: err.message } } satisfies WorkerReply);
    else parentPort!.postMessage({ id: msg.id, ok: false, error: String((err as Error)?.stack ?? err) } satisfies WorkerReply);
  }
});
