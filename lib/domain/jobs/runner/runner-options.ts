import os from "node:os";
import { z } from "zod";
import { parseEnv } from "@/lib/foundation/parse-env";

/**
 * Tuning of the embedded runner, from the environment. Defaults suit a small
 * server: the model already runs in a worker thread, so two runs at once keep
 * one core for HTTP while the other run fetches, decodes or writes files.
 */
const schema = z.object({
  /** Runs executing at once in this process (all functions together). */
  JOB_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  /** How often an idle runner looks for work (it is also woken when this process starts a job). */
  JOB_POLL_MS: z.coerce.number().int().min(10).default(500),
  /** A run's lease: renewed every third of it while the run works; a lapsed lease means its process died. */
  JOB_LEASE_MS: z.coerce.number().int().min(1000).default(30_000),
  /** Retry backoff: base * 2^(attempt-1), with jitter, capped. */
  JOB_RETRY_BASE_MS: z.coerce.number().int().min(1).default(2_000),
  JOB_RETRY_MAX_MS: z.coerce.number().int().min(1).default(60_000),
  /** How long a run may ignore the abort at its time limit before the runner fails it anyway. */
  JOB_TIMEOUT_GRACE_MS: z.coerce.number().int().min(0).default(5_000),
  /** At shutdown (SIGTERM), how long running jobs may take to finish before they are given back. */
  JOB_DRAIN_MS: z.coerce.number().int().min(0).default(20_000),
  /** Load every job's model when the server starts (off: the first job loads it; for tests and small tools). */
  JOB_WARM_UP: z.enum(["on", "off"]).default("on"),
});

export type RunnerOptions = {
  concurrency: number;
  pollMs: number;
  leaseMs: number;
  retryBaseMs: number;
  retryMaxMs: number;
  timeoutGraceMs: number;
  /** stop()'s default wait for running jobs (JOB_DRAIN_MS). */
  drainMs?: number;
  /** Identifies this process in `locked_by`. */
  instanceId: string;
};

export function runnerOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): Omit<RunnerOptions, "instanceId"> {
  const e = parseEnv(schema, env, "job runner");
  return {
    concurrency: e.JOB_CONCURRENCY,
    pollMs: e.JOB_POLL_MS,
    leaseMs: e.JOB_LEASE_MS,
    retryBaseMs: e.JOB_RETRY_BASE_MS,
    retryMaxMs: e.JOB_RETRY_MAX_MS,
    timeoutGraceMs: e.JOB_TIMEOUT_GRACE_MS,
    drainMs: e.JOB_DRAIN_MS,
  };
}

export const warmUpAtStart = (env: NodeJS.ProcessEnv = process.env) => parseEnv(schema, env, "job runner").JOB_WARM_UP === "on";

export function newInstanceId(): string {
  return `${os.hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;
}

/** Exponential backoff with ±20% jitter so retries of many runs do not land together. */
export function retryDelayMs(attempt: number, base: number, max: number): number {
  const raw = Math.min(max, base * 2 ** Math.max(0, attempt - 1));
  return Math.round(raw * (0.8 + Math.random() * 0.4));
}
