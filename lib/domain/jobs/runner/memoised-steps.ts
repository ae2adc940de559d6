import type { Db } from "@/lib/foundation/db/types";
import { LeaseLostError } from "../job-errors";
import type { JobStep } from "../types";
import { saveStep } from "./run-store";

/**
 * `step.run` for the embedded runner, with Inngest's semantics: a step whose
 * result is stored is not run again (its stored result is returned), a new
 * step runs and its JSON result is stored before the handler continues.
 * Repeated ids within one execution get ":1", ":2" suffixes, as Inngest does.
 */
export function memoisedSteps(opts: {
  db: Db;
  runId: string;
  /** The claim's lock token: writes are refused once it no longer holds the run. */
  token: string;
  memo: Map<string, { data?: unknown }>;
  /** "" for the handler, "failure:" for the failure handler. */
  prefix: string;
  signal: AbortSignal;
}): JobStep {
  const seen = new Map<string, number>();
  return {
    async run<T>(id: string, fn: () => Promise<T> | T): Promise<T> {
      const n = seen.get(id) ?? 0;
      seen.set(id, n + 1);
      const key = `${opts.prefix}${n === 0 ? id : `${id}:${n}`}`;
      const stored = opts.memo.get(key);
      if (stored) return stored.data as T;
      // Past the time limit, or stopping: do not start new work.
      if (opts.signal.aborted) throw opts.signal.reason;
      const value = await fn();
      // Round-trip through JSON so a fresh result looks exactly like a replayed one.
      const output = JSON.parse(JSON.stringify({ data: value })) as { data?: unknown };
      const saved = await saveStep(opts.db, { runId: opts.runId, stepId: key, output, token: opts.token });
      if (saved === "lease-lost") throw new LeaseLostError(opts.runId);
      opts.memo.set(key, output);
      return output.data as T;
    },
  };
}
