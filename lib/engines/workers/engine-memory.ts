import os from "node:os";
import { z } from "zod";
import { parseEnv } from "@/lib/foundation/parse-env";

/**
 * One memory budget for the heavy engines of a process (background removal, faces,
 * super-resolution). Each engine run asks for its memory first; a run that does not fit
 * waits, and an engine that is loaded but idle (and not kept warm) is ended early to make
 * room. Why: every service at once is the sum of each engine's peak (1.8-2.0 GB measured on
 * the whole server, bench/server-memory-bench.ts), more than a small server has; with the
 * budget they take turns and the peak is the largest engine's.
 *
 * - ENGINE_MEMORY_MB: the budget, in MB over the server's own memory. Default 1000 (one
 *   background removal run, ~900 MB, and nothing else heavy beside it) on up to 3 cores, and
 *   1000 per background-removal worker that BG_REMOVAL_WORKERS allows by default above (half
 *   the cores). A run larger than the budget still runs, alone. 0 turns the budget off.
 *
 * The figures each engine declares are measured, not computed: the server's RSS with that
 * one service running (`BENCH_JOBS=… npx tsx bench/server-memory-bench.ts`, bench/README.md).
 */
export type EngineMemorySpec = {
  /** The engine's name in logs and tests. */
  name: string;
  /** MB held while its models are loaded (counted from the moment a run that loads it starts). */
  heldMb: number;
  /** MB a run takes on top while it runs (activations, decoded images). */
  runMb: number;
};

export type EngineHandle = EngineMemorySpec & {
  /** MB this engine holds now (0 when nothing is loaded). */
  heldNow(): number;
  /** Ends the engine if it is loaded, idle and not kept warm; true when it did. */
  releaseIfIdle(): Promise<boolean>;
};

type Waiter = { engine: EngineHandle; grant: () => void; abandoned: boolean };
type State = { engines: Set<EngineHandle>; running: Map<EngineHandle, number>; waiting: Waiter[]; pumping: boolean; again: boolean };

const schema = z.object({ ENGINE_MEMORY_MB: z.coerce.number().int().min(0).max(1_000_000).optional() });

/** The budget in MB, or null when it is off. */
export function engineMemoryBudgetMb(env: Record<string, string | undefined> = process.env, cores = os.availableParallelism()): number | null {
  const mb = parseEnv(schema, env, "engines").ENGINE_MEMORY_MB ?? (cores <= 3 ? 1000 : 1000 * Math.floor(cores / 2));
  return mb === 0 ? null : mb;
}

/**
 * The process's budget (one per process on globalThis, whichever bundle loads this; tests
 * pass their own `key` and budget).
 */
export function engineMemory(key = "__engineMemory", budgetMb: () => number | null = engineMemoryBudgetMb) {
  const g = globalThis as unknown as Record<string, State | undefined>;
  const s: State = (g[key] ??= { engines: new Set(), running: new Map(), waiting: [], pumping: false, again: false });

  const runningCount = () => [...s.running.values()].reduce((a, b) => a + b, 0);
  /** What is counted now: every loaded engine's held memory and every run's, a run that loads its engine counting the load too. */
  const inUse = () => {
    let mb = 0;
    for (const e of s.engines) mb += e.heldNow();
    for (const [e, n] of s.running) mb += n * (e.runMb + (e.heldNow() === 0 ? e.heldMb : 0));
    return mb;
  };
  const need = (e: EngineHandle) => e.runMb + (e.heldNow() === 0 ? e.heldMb : 0);

  /**
   * Whether `w` may start now: it fits, or it fits once other idle engines are ended (largest
   * first), or nothing else runs (a run larger than the budget runs alone).
   */
  async function fits(w: Waiter, budget: number): Promise<boolean> {
    const fitting = () => inUse() + need(w.engine) <= budget;
    if (fitting()) return true;
    const idle = [...s.engines].filter((e) => e !== w.engine && !s.running.get(e) && e.heldNow() > 0).sort((a, b) => b.heldNow() - a.heldNow());
    for (const e of idle) {
      await e.releaseIfIdle();
      if (fitting()) return true;
    }
    return runningCount() === 0;
  }

  /** Starts waiting runs in order; the first that does not fit holds the rest (no starving a large run). */
  async function pump(): Promise<void> {
    if (s.pumping) {
      s.again = true;
      return;
    }
    s.pumping = true;
    try {
      do {
        s.again = false;
        const budget = budgetMb();
        while (s.waiting.length > 0) {
          const w = s.waiting[0]!;
          if (w.abandoned) {
            s.waiting.shift();
            continue;
          }
          if (budget !== null && !(await fits(w, budget))) break;
          s.waiting.shift();
          if (w.abandoned) continue;
          s.running.set(w.engine, (s.running.get(w.engine) ?? 0) + 1);
          w.grant();
        }
      } while (s.again);
    } finally {
      s.pumping = false;
    }
  }

  return {
    /** Makes an engine known to the budget (idempotent by name: a hot reload's new module replaces the old entry). */
    register<H extends EngineHandle>(engine: H): H {
      for (const e of s.engines) if (e.name === engine.name) s.engines.delete(e);
      s.engines.add(engine);
      return engine;
    },

    /** Runs `work` once the engine's run fits the budget; an aborted `signal` leaves the queue. */
    async run<T>(engine: EngineHandle, work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
      signal?.throwIfAborted();
      const w: Waiter = { engine, grant: () => {}, abandoned: false };
      let onAbort = () => {};
      const granted = new Promise<void>((resolve, reject) => {
        onAbort = () => {
          w.abandoned = true;
          reject(signal!.reason ?? new DOMException("This operation was aborted", "AbortError"));
        };
        w.grant = () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        };
        signal?.addEventListener("abort", onAbort, { once: true });
      });
      s.waiting.push(w);
      void pump();
      try {
        await granted;
      } catch (err) {
        void pump(); // the next in line may fit now
        throw err;
      }
      try {
        return await work();
      } finally {
        const n = (s.running.get(engine) ?? 1) - 1;
        if (n > 0) s.running.set(engine, n);
        else s.running.delete(engine);
        void pump();
      }
    },

    /** For tests: MB counted now, runs in progress and waiting. */
    snapshot: () => ({ inUseMb: inUse(), running: runningCount(), waiting: s.waiting.filter((w) => !w.abandoned).length }),
  };
}

export type EngineMemoryBudget = ReturnType<typeof engineMemory>;
