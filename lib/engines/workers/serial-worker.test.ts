import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { serialWorker } from "./serial-worker";
import { engineIdleMs } from "./engine-idle";

// A worker that answers with its own thread id: a new id means a new worker was started.
const echo = () =>
  new Worker("const { parentPort, threadId } = require('node:worker_threads'); parentPort.on('message', (m) => parentPort.postMessage({ id: m.id, threadId }));", { eval: true });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("serialWorker idleness", () => {
  it("ends a worker left idle, and starts a new one for the next request", async () => {
    const engine = serialWorker<{ n: number }, { id: number; threadId: number }>(`__test_idle_${Math.random()}`, echo, () => 150);
    const first = await engine.request({ n: 1 }, { timeoutMs: 5_000 });
    const again = await engine.request({ n: 2 }, { timeoutMs: 5_000 });
    expect(again.threadId).toBe(first.threadId);
    await sleep(600);
    const later = await engine.request({ n: 3 }, { timeoutMs: 5_000 });
    expect(later.threadId).not.toBe(first.threadId);
    await engine.shutDown();
  });

  it("keeps it when told to keep engines warm", async () => {
    const engine = serialWorker<{ n: number }, { id: number; threadId: number }>(`__test_warm_${Math.random()}`, echo, () => null);
    const first = await engine.request({ n: 1 }, { timeoutMs: 5_000 });
    await sleep(400);
    expect((await engine.request({ n: 2 }, { timeoutMs: 5_000 })).threadId).toBe(first.threadId);
    await engine.shutDown();
  });

  // A worker's exit event comes after terminate() was asked for: a request already sent to the
  // next worker must not be failed by it (seen as "faces not counted: Face detection stopped
  // unexpectedly" in the production server, where engines end for idleness and memory).
  it("a worker being ended fails none of the next worker's requests", async () => {
    const engine = serialWorker<{ n: number }, { id: number; threadId: number }>(`__test_succ_${Math.random()}`, echo, () => null);
    const first = await engine.request({ n: 1 }, { timeoutMs: 5_000 });
    const ending = engine.shutDown(); // not awaited: the old worker's exit is still to come
    const next = await engine.request({ n: 2 }, { timeoutMs: 5_000 });
    expect(next.threadId).not.toBe(first.threadId);
    await ending;
    await engine.shutDown();
  });

  it("after a time limit, the next request goes to a new worker, not the one being terminated", async () => {
    // Busy for 400 ms on its first message, answers at once after.
    const slowOnce = () =>
      new Worker(
        "const { parentPort, threadId } = require('node:worker_threads'); let first = true; parentPort.on('message', (m) => { if (first) { first = false; const t = Date.now(); while (Date.now() - t < 400); } parentPort.postMessage({ id: m.id, threadId }); });",
        { eval: true },
      );
    const engine = serialWorker<{ n: number }, { id: number; threadId: number }>(`__test_timeout_${Math.random()}`, slowOnce, () => null);
    const late = engine.request({ n: 1 }, { timeoutMs: 100 });
    const next = engine.request({ n: 2 }, { timeoutMs: 5_000 });
    await expect(late).rejects.toMatchObject({ kind: "timeout" });
    // The new worker is busy on its own first message (400 ms) and then answers.
    expect((await next).threadId).toBeGreaterThan(0);
    await engine.shutDown();
  });

  it("reads its settings from the environment", () => {
    expect(engineIdleMs({})).toBe(60_000);
    expect(engineIdleMs({ ENGINE_IDLE_SECONDS: "5" })).toBe(5_000);
    expect(engineIdleMs({ ENGINE_KEEP_WARM: "true" })).toBeNull();
    expect(() => engineIdleMs({ ENGINE_IDLE_SECONDS: "0" })).toThrow(/ENGINE_IDLE_SECONDS/);
  });
});
