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

  it("reads its settings from the environment", () => {
    expect(engineIdleMs({})).toBe(60_000);
    expect(engineIdleMs({ ENGINE_IDLE_SECONDS: "5" })).toBe(5_000);
    expect(engineIdleMs({ ENGINE_KEEP_WARM: "true" })).toBeNull();
    expect(() => engineIdleMs({ ENGINE_IDLE_SECONDS: "0" })).toThrow(/ENGINE_IDLE_SECONDS/);
  });
});
