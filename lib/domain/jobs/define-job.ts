import { NonRetriableError } from "inngest";
import { inngest } from "@/lib/domain/jobs/inngest-client";
import { JobTimeoutError } from "./job-errors";
import type { AnyJobDefinition, EventSchema, JobDefinition, JobEvent, JobStep } from "./types";

/**
 * Declares a job once and builds its Inngest function from it. The embedded
 * runner executes the same definition (lib/domain/jobs/runner), so both runtimes run
 * the same handler, steps and failure handler.
 */
export function defineJob<N extends string, S extends EventSchema>(def: JobDefinition<N, S>) {
  return Object.assign(def, { fn: toInngestFunction(def as unknown as AnyJobDefinition) });
}

export type DefinedJob = AnyJobDefinition & { fn: ReturnType<typeof toInngestFunction> };

/** Validates event data with the event's schema; bad data is a bug upstream, never worth a retry. */
export function parseJobEvent(def: AnyJobDefinition, raw: { id?: string; name: string; data: unknown; ts?: number }): JobEvent<never> {
  const parsed = def.event.schema.safeParse(raw.data);
  if (!parsed.success) throw new NonRetriableError(`Event ${raw.name} has invalid data: ${parsed.error.message}`);
  return { id: raw.id ?? "", name: raw.name, data: parsed.data as never, ts: raw.ts ?? Date.now() };
}

/**
 * A signal aborted at the job's time limit (from the event's time), with a
 * JobTimeoutError as its reason. Already past it: throws that error.
 */
export function deadlineSignal(def: AnyJobDefinition, eventTs: number): { signal: AbortSignal; clear: () => void } {
  const remaining = eventTs + def.timeoutMs - Date.now();
  if (remaining <= 0) throw new JobTimeoutError(def.timeoutMs);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new JobTimeoutError(def.timeoutMs)), remaining);
  timer.unref?.();
  return { signal: controller.signal, clear: () => clearTimeout(timer) };
}

function inngestStep(step: { run: (id: string, fn: () => unknown) => Promise<unknown> }): JobStep {
  return { run: <T>(id: string, fn: () => Promise<T> | T) => step.run(id, fn) as Promise<T> };
}

function toInngestFunction(def: AnyJobDefinition) {
  return inngest.createFunction(
    {
      id: def.id,
      name: def.name,
      retries: def.retries,
      triggers: [def.event],
      ...(def.concurrency ? { concurrency: { limit: def.concurrency } } : {}),
      // Inngest's own `timeouts.finish` cancels a run without running onFailure,
      // which would keep the tokens: the deadline is enforced by the handler
      // below instead (every invocation checks it, so a hung attempt that
      // Inngest retries fails with a JobTimeoutError and is refunded).
      onFailure: async ({ event, error, step, runId }) => {
        const original = (event.data as { event: { id?: string; name: string; data: unknown; ts?: number } }).event;
        const parsed = def.event.schema.safeParse(original.data);
        await def.onFailure({
          event: { id: original.id ?? "", name: original.name, data: (parsed.success ? parsed.data : original.data) as never, ts: original.ts ?? 0 },
          error: { name: error.name, message: error.message },
          step: inngestStep(step),
          runId,
        });
      },
    },
    async ({ event, step, runId, attempt }) => {
      const jobEvent = parseJobEvent(def, event as { id?: string; name: string; data: unknown; ts?: number });
      const deadline = deadlineSignal(def, jobEvent.ts);
      try {
        return await def.handler({ event: jobEvent, step: inngestStep(step), runId, attempt, signal: deadline.signal });
      } finally {
        deadline.clear();
      }
    },
  );
}
