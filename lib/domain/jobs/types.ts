import type { z } from "zod";
import type { EventType } from "inngest";
import type { SerializedError } from "./job-errors";

/** Event data is a JSON object validated by its zod schema (one per event, see inngest/events.ts). */
export type EventSchema = z.ZodType<Record<string, unknown>, Record<string, unknown>>;
export type JobEventType<N extends string = string, S extends EventSchema = EventSchema> = EventType<N, S>;

/** The event a run was started by, as both runtimes hand it to a handler. */
export type JobEvent<D> = { id: string; name: string; data: D; ts: number };

/**
 * The step tools a job uses. Only `run`: a step's side effects happen once per
 * job, and its return value (plain JSON data) is stored and replayed when the
 * job is retried or resumed. Both runtimes round-trip the value through JSON,
 * so a handler sees the same thing whether the step just ran or was replayed.
 */
export interface JobStep {
  run<T>(id: string, fn: () => Promise<T> | T): Promise<T>;
}

export type JobContext<D> = {
  event: JobEvent<D>;
  step: JobStep;
  runId: string;
  /** 0 for the first attempt. */
  attempt: number;
  /** Aborted at the job's time limit (reason: JobTimeoutError) or when the runner stops. Pass it to engines and fetches. */
  signal: AbortSignal;
};

export type FailureContext<D> = {
  event: JobEvent<D>;
  /** The error that ended the last attempt (or the time limit, or repeated crashes). */
  error: SerializedError;
  step: JobStep;
  runId: string;
};

/** Inngest accepts 0 to 20 retries. */
export type Retries = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 12 | 13 | 14 | 15 | 16 | 17 | 18 | 19 | 20;

/**
 * One job, written once: from this both the Inngest function (served at
 * /api/inngest) and the embedded runner's registration are built, so the two
 * runtimes execute the same handler, the same steps and the same failure handler.
 */
export type JobDefinition<N extends string = string, S extends EventSchema = EventSchema> = {
  /** The Inngest function id: stable across deployments (it keys stored runs). */
  id: string;
  name?: string;
  /** The triggering event (an Inngest EventType carrying its zod schema). */
  event: JobEventType<N, S>;
  /** Retries after the first attempt (Inngest semantics). */
  retries: Retries;
  /** Time limit from acceptance (the event's ts): past it the job fails and its failure handler runs. */
  timeoutMs: number;
  /** Runs of this job at once: per process for the embedded runner, across the app for Inngest. */
  concurrency?: number;
  handler: (ctx: JobContext<z.output<S>>) => Promise<unknown>;
  /** Runs after the last attempt failed. Must be idempotent: it can run more than once. */
  onFailure: (ctx: FailureContext<z.output<S>>) => Promise<void>;
  /** Loads what the job needs (e.g. a model) before the first run, so the first job does not pay for it. */
  warmUp?: () => Promise<void>;
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyJobDefinition = JobDefinition<string, any>;
