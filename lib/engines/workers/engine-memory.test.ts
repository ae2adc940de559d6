import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { engineMemory, engineMemoryBudgetMb, type EngineHandle } from "./engine-memory";
import { serialWorker } from "./serial-worker";

const budgetOf = (mb: number | null) => engineMemory(`__test_budget_${Math.random()}`, () => mb);

/** An engine whose held memory the test sets (a stand-in for a model loaded in a worker). */
function engine(name: string, heldMb: number, runMb: number, opts: { releasable?: boolean } = {}) {
  let held = 0;
  const released: string[] = [];
  const handle: EngineHandle & { load(): void; released: string[] } = {
    name,
    heldMb,
    runMb,
    heldNow: () => held,
    async releaseIfIdle() {
      if (!opts.releasable || held === 0) return false;
      held = 0;
      released.push(name);
      return true;
    },
    load: () => void (held = heldMb),
    released,
  };
  return handle;
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}
const tick = () => new Promise((r) => setTimeout(r, 20));

describe("engine memory budget", () => {
  it("lets runs that fit go together and makes a run that does not wait its turn, in order", async () => {
    const budget = budgetOf(100);
    const a = budget.register(engine("a", 0, 60));
    const b = budget.register(engine("b", 0, 60));
    const c = budget.register(engine("c", 0, 30));
    const order: string[] = [];
    const aDone = deferred();
    const runA = budget.run(a, async () => (order.push("a"), aDone.promise));
    const runB = budget.run(b, async () => void order.push("b"));
    // c would fit beside a (90 MB), but b came first: no overtaking, or a large run could wait forever.
    const runC = budget.run(c, async () => void order.push("c"));
    await tick();
    expect(order).toEqual(["a"]);
    expect(budget.snapshot()).toMatchObject({ inUseMb: 60, running: 1, waiting: 2 });
    aDone.resolve();
    await Promise.all([runA, runB, runC]);
    expect(order).toEqual(["a", "b", "c"]);
    expect(budget.snapshot()).toMatchObject({ inUseMb: 0, running: 0, waiting: 0 });
  });

  it("counts a loaded engine's memory, ends an idle one to make room, and never one that is kept", async () => {
    const budget = budgetOf(100);
    const idle = budget.register(engine("idle", 50, 10, { releasable: true }));
    const kept = budget.register(engine("kept", 30, 10));
    const big = budget.register(engine("big", 40, 40));
    idle.load();
    kept.load();
    expect(budget.snapshot().inUseMb).toBe(80);
    // big needs 80 (its load and its run): 160 > 100, so the idle engine is ended; the kept one stays.
    await budget.run(big, async () => big.load());
    expect(idle.released).toEqual(["idle"]);
    expect(kept.heldNow()).toBe(30);
    expect(budget.snapshot().inUseMb).toBe(70);
  });

  it("runs a run larger than the whole budget alone rather than never", async () => {
    const budget = budgetOf(100);
    const huge = budget.register(engine("huge", 100, 200));
    await expect(budget.run(huge, async () => "ran")).resolves.toBe("ran");
  });

  it("drops a waiting run whose caller gave up, and the next in line goes", async () => {
    const budget = budgetOf(100);
    const a = budget.register(engine("a", 0, 80));
    const b = budget.register(engine("b", 0, 80));
    const aDone = deferred();
    const runA = budget.run(a, () => aDone.promise);
    const abort = new AbortController();
    let bRan = false;
    const runB = budget.run(b, async () => void (bRan = true), abort.signal);
    await tick();
    abort.abort();
    await expect(runB).rejects.toMatchObject({ name: "AbortError" });
    expect(budget.snapshot().waiting).toBe(0);
    const runA2 = budget.run(a, async () => "second");
    aDone.resolve();
    await runA;
    await expect(runA2).resolves.toBe("second");
    expect(bRan).toBe(false);
  });

  it("does nothing when off: every run at once", async () => {
    const budget = budgetOf(null);
    const a = budget.register(engine("a", 500, 500));
    const b = budget.register(engine("b", 500, 500));
    const aDone = deferred();
    const runA = budget.run(a, () => aDone.promise);
    await expect(budget.run(b, async () => "b beside a")).resolves.toBe("b beside a");
    aDone.resolve();
    await runA;
  });

  it("ends a real idle worker thread when another engine needs the room", async () => {
    const budget = budgetOf(100);
    const echo = () =>
      new Worker("const { parentPort, threadId } = require('node:worker_threads'); parentPort.on('message', (m) => parentPort.postMessage({ id: m.id, threadId }));", { eval: true });
    type Reply = { id: number; threadId: number };
    const first = serialWorker<object, Reply>(`__test_first_${Math.random()}`, echo, () => 60_000, { spec: { name: "first", heldMb: 60, runMb: 10 }, budget });
    const second = serialWorker<object, Reply>(`__test_second_${Math.random()}`, echo, () => 60_000, { spec: { name: "second", heldMb: 60, runMb: 10 }, budget });
    const one = await first.request({}, { timeoutMs: 5_000 });
    expect(budget.snapshot().inUseMb).toBe(60); // loaded and idle (its idle time is a minute)
    await second.request({}, { timeoutMs: 5_000 });
    expect(budget.snapshot().inUseMb).toBe(60); // the first was ended for the second's 70
    const again = await first.request({}, { timeoutMs: 5_000 });
    expect(again.threadId).not.toBe(one.threadId); // a new worker: the old one really ended
    await Promise.all([first.shutDown(), second.shutDown()]);
  });

  it("reads its setting from the environment", () => {
    expect(engineMemoryBudgetMb({}, 2)).toBe(1000);
    expect(engineMemoryBudgetMb({}, 8)).toBe(4000);
    expect(engineMemoryBudgetMb({ ENGINE_MEMORY_MB: "1500" }, 2)).toBe(1500);
    expect(engineMemoryBudgetMb({ ENGINE_MEMORY_MB: "0" }, 2)).toBeNull();
    expect(() => engineMemoryBudgetMb({ ENGINE_MEMORY_MB: "lots" }, 2)).toThrow(/ENGINE_MEMORY_MB/);
  });
});
