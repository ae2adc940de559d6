import type { Db } from "@/lib/foundation/db/types";
import { logger } from "@/lib/foundation/log/logger";
import { parseJobEvent } from "../define-job";
import { isNonRetriable, JobTimeoutError, LeaseLostError, serializeError } from "../job-errors";
import type { AnyJobDefinition, JobEvent } from "../types";
import { memoisedSteps } from "./memoised-steps";
import { retryDelayMs, type RunnerOptions } from "./runner-options";
import { claimNextRun, expireForeignLeases, loadSteps, releaseRun, renewLeases, type JobRunRow, type Phase, type RunOutcome } from "./run-store";

/** A failure handler only touches the database; if it hangs this long, try it again later. */
const FAILURE_HANDLER_LIMIT_MS = 60_000;

class RunnerStoppingError extends Error {
  constructor() {
    super("The job runner is stopping.");
    this.name = "RunnerStoppingError";
  }
}

type InFlight = { run: JobRunRow; phase: Phase; controller: AbortController; done: Promise<void> };

/**
 * Executes job definitions (the same ones served to Inngest) durably over the
 * app's database: claims due runs, replays memoised steps, retries with
 * backoff, runs the failure handler after the last attempt, enforces each
 * run's time limit, and picks up runs whose process died. At most
 * `concurrency` runs execute at once in this process (and at most a
 * definition's own `concurrency` of one function).
 */
export class EmbeddedRunner {
  private readonly defs: Map<string, AnyJobDefinition>;
  private readonly inFlight = new Map<string, InFlight>();
  private running = false;
  private loopDone: Promise<void> = Promise.resolve();
  private wakeUp: (() => void) | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private db!: Db;
  private claims = 0;

  constructor(
    definitions: readonly AnyJobDefinition[],
    readonly options: RunnerOptions,
    private readonly openDb: () => Promise<Db>,
  ) {
    this.defs = new Map(definitions.map((d) => [d.id, d]));
  }

  get busy(): number {
    return this.inFlight.size;
  }

  /** `recoverForeignLeases`: this process is the only possible owner of the database (PGlite). */
  async start(opts: { recoverForeignLeases?: boolean } = {}): Promise<void> {
    if (this.running) return;
    this.db = await this.openDb();
    if (opts.recoverForeignLeases) {
      const n = await expireForeignLeases(this.db, this.options.instanceId);
      if (n > 0) console.log(`[jobs] resuming ${n} job run(s) left unfinished by a previous process`);
    }
    this.running = true;
    this.heartbeat = setInterval(() => void this.renew(), Math.max(250, Math.floor(this.options.leaseMs / 3)));
    this.heartbeat.unref?.();
    this.loopDone = this.loop();
  }

  /** Look for work now (e.g. this process just started a job). */
  wake(): void {
    this.wakeUp?.();
  }

  /**
   * Stops taking work, lets running jobs finish for up to `drainMs`, then
   * aborts the rest and gives their runs back (the attempt is not counted).
   */
  async stop(opts: { drainMs?: number } = {}): Promise<void> {
    if (!this.running) return;
    this.running = false;
    clearInterval(this.heartbeat);
    this.wake();
    await this.loopDone;
    const all = () => Promise.allSettled([...this.inFlight.values()].map((f) => f.done));
    const drainMs = opts.drainMs ?? this.options.drainMs ?? 10_000;
    const drained = await Promise.race([all().then(() => true), sleep(drainMs).then(() => false)]);
    if (!drained) {
      for (const f of this.inFlight.values()) f.controller.abort(new RunnerStoppingError());
      await all();
    }
  }

  private async loop(): Promise<void> {
    while (this.running) {
      try {
        await this.fill();
      } catch (err) {
        console.error("[jobs] the runner could not look for work:", err);
      }
      if (!this.running) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.options.pollMs);
        this.wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wakeUp = undefined;
    }
  }

  private async fill(): Promise<void> {
    while (this.running && this.inFlight.size < this.options.concurrency) {
      const functionIds = [...this.defs.values()].filter((d) => this.countOf(d.id) < (d.concurrency ?? Infinity)).map((d) => d.id);
      const token = `${this.options.instanceId}#${++this.claims}`;
      const claimed = await claimNextRun(this.db, { token, functionIds, leaseMs: this.options.leaseMs });
      if (!claimed) return;
      const controller = new AbortController();
      const work = claimed.phase === "run" ? this.attempt(claimed.run, controller) : this.fail(claimed.run, controller);
      const done = work
        .catch((err) => console.error(`[jobs] run ${claimed.run.id} (${claimed.run.functionId}) broke the runner:`, err))
        .finally(() => {
          this.inFlight.delete(claimed.run.id);
          this.wake();
        });
      this.inFlight.set(claimed.run.id, { run: claimed.run, phase: claimed.phase, controller, done });
    }
  }

  private countOf(functionId: string): number {
    let n = 0;
    for (const f of this.inFlight.values()) if (f.run.functionId === functionId) n++;
    return n;
  }

  /** One attempt of a run's handler. */
  private async attempt(run: JobRunRow, controller: AbortController): Promise<void> {
    const def = this.defs.get(run.functionId)!;
    const started = performance.now();
    const limitMs = run.deadline.getTime() - run.eventTs.getTime();
    const timer = setTimeout(() => controller.abort(new JobTimeoutError(limitMs)), Math.max(0, run.deadline.getTime() - Date.now()));
    let outcome: RunOutcome | null;
    try {
      const memo = await loadSteps(this.db, run.id);
      const step = memoisedSteps({ db: this.db, runId: run.id, token: run.lockedBy!, memo, prefix: "", signal: controller.signal });
      const event = parseJobEvent(def, { id: run.eventId, name: run.eventName, data: run.eventData, ts: run.eventTs.getTime() });
      const result = await this.settleOrAbandon(
        def.handler({ event, step, runId: run.id, attempt: run.attempt - 1, signal: controller.signal }),
        controller.signal,
        this.options.timeoutGraceMs,
      );
      outcome = { kind: "completed", output: JSON.parse(JSON.stringify(result ?? null)) };
    } catch (err) {
      outcome = this.outcomeOf(err, run, controller.signal);
    } finally {
      clearTimeout(timer);
    }
    const failed = outcome && (outcome.kind === "retry" || outcome.kind === "to-failure") ? outcome.error : undefined;
    logger()[failed ? "warn" : "info"](
      {
        run_id: run.id,
        function: run.functionId,
        job_id: typeof run.eventData.jobId === "string" || typeof run.eventData.jobId === "number" ? run.eventData.jobId : undefined,
        account_id: typeof run.eventData.accountId === "string" ? run.eventData.accountId : undefined,
        attempt: run.attempt,
        max_attempts: run.maxAttempts,
        outcome: outcome?.kind ?? "lease_lost",
        error: failed ? `${failed.name}: ${failed.message}` : undefined,
        duration_ms: Math.round(performance.now() - started),
      },
      "job attempt",
    );
    if (!outcome) return;
    const held = await releaseRun(this.db, run, outcome);
    if (!held) logger().warn({ run_id: run.id }, "job run was taken over before it could be released");
  }

  private outcomeOf(err: unknown, run: JobRunRow, signal: AbortSignal): RunOutcome | null {
    const reason: unknown = signal.aborted ? signal.reason : undefined;
    if (reason instanceof LeaseLostError || err instanceof LeaseLostError) return null;
    if (reason instanceof RunnerStoppingError) return { kind: "released", phase: "run" };
    // At the time limit the handler's own error is usually an AbortError: report the limit.
    if (reason instanceof JobTimeoutError) return { kind: "to-failure", error: serializeError(reason) };
    const error = serializeError(err);
    if (isNonRetriable(err) || run.attempt >= run.maxAttempts) return { kind: "to-failure", error };
    return { kind: "retry", error, delayMs: retryDelayMs(run.attempt, this.options.retryBaseMs, this.options.retryMaxMs) };
  }

  /** Runs the failure handler (it marks the record failed and refunds; it is idempotent). */
  private async fail(run: JobRunRow, controller: AbortController): Promise<void> {
    const def = this.defs.get(run.functionId)!;
    const timer = setTimeout(() => controller.abort(new Error("The failure handler took too long.")), FAILURE_HANDLER_LIMIT_MS);
    let outcome: RunOutcome | null;
    try {
      const memo = await loadSteps(this.db, run.id);
      const step = memoisedSteps({ db: this.db, runId: run.id, token: run.lockedBy!, memo, prefix: "failure:", signal: controller.signal });
      const parsed = def.event.schema.safeParse(run.eventData);
      const event: JobEvent<never> = { id: run.eventId, name: run.eventName, data: (parsed.success ? parsed.data : run.eventData) as never, ts: run.eventTs.getTime() };
      const error = run.lastError ?? { name: "Error", message: "The job failed." };
      await this.settleOrAbandon(def.onFailure({ event, error, step, runId: run.id }), controller.signal, 1_000);
      outcome = { kind: "failed" };
    } catch (err) {
      const reason: unknown = controller.signal.aborted ? controller.signal.reason : undefined;
      if (reason instanceof LeaseLostError || err instanceof LeaseLostError) outcome = null;
      else if (reason instanceof RunnerStoppingError) outcome = { kind: "released", phase: "failure" };
      else {
        console.error(`[jobs] failure handler of ${run.functionId} run ${run.id} failed; retrying:`, err);
        outcome = { kind: "failure-retry", delayMs: retryDelayMs(3, this.options.retryBaseMs, this.options.retryMaxMs) };
      }
    } finally {
      clearTimeout(timer);
    }
    if (outcome) await releaseRun(this.db, run, outcome);
  }

  /**
   * The handler's result; once the signal aborts, the handler gets `graceMs` to
   * settle (engines honour the signal) and is then abandoned: its later step
   * writes are refused by the lease fence, so it cannot change the run.
   */
  private settleOrAbandon<T>(work: Promise<T>, signal: AbortSignal, graceMs: number): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let grace: NodeJS.Timeout | undefined;
      const onAbort = () => {
        grace = setTimeout(() => reject(signal.reason), graceMs);
      };
      if (signal.aborted) onAbort();
      else signal.addEventListener("abort", onAbort, { once: true });
      work.then(resolve, reject).finally(() => {
        clearTimeout(grace);
        signal.removeEventListener("abort", onAbort);
      });
    });
  }

  /** Keeps our leases alive; a run whose lease another instance took is abandoned. */
  private async renew(): Promise<void> {
    if (this.inFlight.size === 0) return;
    try {
      const flights = [...this.inFlight.values()];
      const held = await renewLeases(this.db, flights.map((f) => f.run.lockedBy!), this.options.leaseMs);
      for (const f of flights) if (!held.has(f.run.lockedBy!)) f.controller.abort(new LeaseLostError(f.run.id));
    } catch (err) {
      console.error("[jobs] could not renew job leases:", err);
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref?.());
}
