import { NonRetriableError } from "inngest";

/**
 * Errors the runtime itself raises. They extend Inngest's NonRetriableError so
 * Inngest and the embedded runner both stop retrying and go to the failure
 * handler. Their messages are written for people: a job's error_message.
 */

/** The job outlived its time limit. */
export class JobTimeoutError extends NonRetriableError {
  constructor(limitMs: number) {
    super(`The job did not finish within its time limit of ${formatDuration(limitMs)}.`);
    this.name = "JobTimeoutError";
  }
}

/** The process running the job died (restart, crash, out of memory) too many times. */
export class JobInterruptedError extends NonRetriableError {
  constructor(attempts: number) {
    super(`The job was interrupted ${attempts} time${attempts === 1 ? "" : "s"} (server restart or crash) and was stopped.`);
    this.name = "JobInterruptedError";
  }
}

/** The embedded runner lost its lease on a run (another instance took it, or it timed out): stop quietly. */
export class LeaseLostError extends Error {
  constructor(runId: string) {
    super(`Lost the lease on job run ${runId}.`);
    this.name = "LeaseLostError";
  }
}

/** Names of errors that must not be retried, whichever side (Inngest or the embedded runner) sees them. */
const NON_RETRIABLE = new Set(["NonRetriableError", "JobTimeoutError", "JobInterruptedError"]);

export function isNonRetriable(err: unknown): boolean {
  if (err instanceof NonRetriableError) return true;
  const name = (err as { name?: unknown } | null)?.name;
  return typeof name === "string" && NON_RETRIABLE.has(name);
}

export type SerializedError = { name: string; message: string };

export function serializeError(err: unknown): SerializedError {
  if (err instanceof Error) return { name: err.name, message: err.message };
  if (err && typeof err === "object" && "message" in err) {
    const e = err as { name?: unknown; message?: unknown };
    return { name: typeof e.name === "string" ? e.name : "Error", message: String(e.message) };
  }
  return { name: "Error", message: String(err) };
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  const s = Math.round(ms / 1000);
  if (s < 120) return `${s} second${s === 1 ? "" : "s"}`;
  const m = Math.round(s / 60);
  return `${m} minutes`;
}

/** Errors every job may end with whose message is written for people (the runtime's own, and a plain NonRetriableError). */
const RUNTIME_HUMAN = ["NonRetriableError", "JobTimeoutError", "JobInterruptedError"];

/**
 * The message a failed job shows its customer, from the error that ended its last
 * attempt: the error's own message when its class writes for people (the job's
 * `humanErrors` plus the runtime's), else the job's generic sentence, so no
 * internals leak.
 */
export function failureMessageFor(humanErrors: readonly string[], generic: string) {
  const human = new Set([...humanErrors, ...RUNTIME_HUMAN]);
  return (error: SerializedError): string => (human.has(error.name) && error.message ? error.message : generic);
}
