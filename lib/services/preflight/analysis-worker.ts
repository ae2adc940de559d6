// Worker-thread entry for preflight analysis (started by run-analysis.ts).
// Parsing a 200 MB PDF or decoding a 50-megapixel TIFF takes seconds of CPU:
// here it never blocks the server's event loop, and a runaway file can be
// stopped by terminating this thread.
import { parentPort } from "node:worker_threads";
import { analyzeFile, type AnalysisLimits, type PreflightFileType } from "./analyze-file";
import type { CheckTargets } from "./issue";

export type AnalysisRequest = { bytes: Uint8Array; fileType: PreflightFileType; targets: CheckTargets; limits: AnalysisLimits };

parentPort?.on("message", async (req: AnalysisRequest) => {
  try {
    const result = await analyzeFile(req.bytes, req.fileType, req.targets, req.limits);
    parentPort!.postMessage({ ok: true, result });
  } catch (err) {
    parentPort!.postMessage({ ok: false, error: String((err as Error)?.stack ?? err) });
  }
});
