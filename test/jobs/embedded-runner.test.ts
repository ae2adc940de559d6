import { afterEach, describe, expect, it } from "vitest";
import { NonRetriableError } from "inngest";
import { getDb } from "@/lib/foundation/db/client";
import { defineJob } from "@/lib/domain/jobs/define-job";
import { claimNextRun, saveStep } from "@/lib/domain/jobs/runner/run-store";
import type { EmbeddedRunner } from "@/lib/domain/jobs/runner/embedded-runner";
import type { AnyJobDefinition, FailureContext } from "@/lib/domain/jobs/types";
import { enqueue, runnerFor, runRow, sleep, stepIds, testEvent, waitFor, waitForStatus } from "./runner-harness";

// The embedded runner against the real database (PGlite, or PostgreSQL with
// DATABASE_URL), with test-only job definitions built by the same defineJob
// as the app's jobs.

let runners: EmbeddedRunner[] = [];
afterEach(async () => {
  await Promise.all(runners.map((r) => r.stop({ drainMs: 0 })));
  runners = [];
});

async function start(defs: AnyJobDefinition[], over: Parameters<typeof runnerFor>[1] = {}, recover = false) {
  const r = runnerFor(defs, over);
  runners.push(r);
  await r.start({ recoverForeignLeases: recover });
  return r;
}

type Failure = FailureContext<{ n: number }>;

function job(id: string, parts: Partial<AnyJobDefinition> & Pick<AnyJobDefinition, "handler">) {
  return defineJob({
    id,
    event: testEvent,
    retries: 2,
    timeoutMs: 30_000,
    onFailure: async () => {},
    ...parts,
  } as AnyJobDefinition) as AnyJobDefinition;
}

describe("embedded runner", () => {
  it("runs each step once, stores its result and completes with the handler's output", async () => {
    const calls = { a: 0, b: 0 };
    const def = job("t-complete", {
      handler: async ({ event, step }) => {
        const a = await step.run("a", async () => {
          calls.a++;
          return { doubled: (event.data as { n: number }).n * 2, at: new Date(0) };
        });
        const b = await step.run("b", () => {
          calls.b++;
          return a.doubled + 1;
        });
        // Step results are JSON: a Date comes back as its ISO string, as with Inngest.
        return { a, b };
      },
    });
    const runId = await enqueue([def], { n: 20 });
    await start([def]);
    const row = await waitForStatus(runId, "completed");
    expect(row.output).toEqual({ a: { doubled: 40, at: "1970-01-01T00:00:00.000Z" }, b: 41 });
    expect(row.attempt).toBe(1);
    expect(row.lockedBy).toBeNull();
    expect(calls).toEqual({ a: 1, b: 1 });
    expect(await stepIds(runId)).toEqual(["a", "b"]);
  });

  it("retries a failed attempt with backoff and does not repeat completed steps", async () => {
    const calls = { a: 0, b: 0 };
    const def = job("t-retry", {
      handler: async ({ step, attempt }) => {
        await step.run("a", () => ++calls.a);
        return step.run("b", () => {
          calls.b++;
          if (attempt === 0) throw new Error("flaky");
          return "ok";
        });
      },
    });
    const runId = await enqueue([def]);
    await start([def]);
    const row = await waitForStatus(runId, "completed");
    expect(row.output).toBe("ok");
    expect(row.attempt).toBe(2);
    expect(calls).toEqual({ a: 1, b: 2 });
  });

  it("runs the failure handler once, with the last error, after the last attempt", async () => {
    const failures: Failure[] = [];
    let attempts = 0;
    const def = job("t-exhaust", {
      retries: 2,
      handler: async () => {
        attempts++;
        throw new Error(`boom ${attempts}`);
      },
      onFailure: async (ctx) => {
        await ctx.step.run("record", () => "recorded");
        failures.push(ctx as Failure);
      },
    });
    const runId = await enqueue([def], { n: 7 });
    await start([def]);
    const row = await waitForStatus(runId, "failed");
    expect(attempts).toBe(3);
    expect(row.attempt).toBe(3);
    expect(failures).toHaveLength(1);
    expect(failures[0]!.error).toEqual({ name: "Error", message: "boom 3" });
    expect(failures[0]!.event.data).toEqual({ n: 7 });
    expect(await stepIds(runId)).toEqual(["failure:record"]);
  });

  it("does not retry a NonRetriableError", async () => {
    let attempts = 0;
    let failure: Failure | undefined;
    const def = job("t-nonretriable", {
      handler: async () => {
        attempts++;
        throw new NonRetriableError("The file is not an image.");
      },
      onFailure: async (ctx) => {
        failure = ctx as Failure;
      },
    });
    const runId = await enqueue([def]);
    await start([def]);
    await waitForStatus(runId, "failed");
    expect(attempts).toBe(1);
    expect(failure!.error).toEqual({ name: "NonRetriableError", message: "The file is not an image." });
  });

  it("fails a run that outlives its time limit even when the handler ignores the abort, and fences its late steps", async () => {
    let failure: Failure | undefined;
    let lateStepRan = false;
    let sawAbort = false;
    const def = job("t-timeout", {
      timeoutMs: 300,
      handler: async ({ step, signal }) => {
        signal.addEventListener("abort", () => (sawAbort = true));
        await step.run("slow", () => sleep(900)); // ignores the signal
        await step.run("late", () => (lateStepRan = true));
      },
      onFailure: async (ctx) => {
        failure = ctx as Failure;
      },
    });
    const runId = await enqueue([def]);
    await start([def], { timeoutGraceMs: 100 });
    const row = await waitForStatus(runId, "failed", 20_000);
    expect(sawAbort).toBe(true);
    expect(failure!.error.name).toBe("JobTimeoutError");
    expect(failure!.error.message).toMatch(/time limit/);
    expect(row.attempt).toBe(1);
    // The abandoned attempt finishes its slow step later: its write is refused and it goes no further.
    await sleep(900);
    expect(lateStepRan).toBe(false);
    expect(await stepIds(runId)).toEqual([]);
  });

  it("fails a run whose time limit passed while it waited, without running it", async () => {
    let ran = false;
    let failure: Failure | undefined;
    const def = job("t-expired", {
      timeoutMs: 1_000,
      handler: async () => {
        ran = true;
      },
      onFailure: async (ctx) => {
        failure = ctx as Failure;
      },
    });
    const runId = await enqueue([def], { n: 1 }, Date.now() - 5_000);
    await start([def]);
    const row = await waitForStatus(runId, "failed");
    expect(ran).toBe(false);
    expect(row.attempt).toBe(0);
    expect(failure!.error.name).toBe("JobTimeoutError");
  });

  it("resumes a run whose process died once its lease lapses, replaying finished steps", async () => {
    const calls = { a: 0, b: 0 };
    const def = job("t-crash", {
      handler: async ({ step }) => {
        const a = await step.run("a", () => ++calls.a);
        await step.run("b", () => ++calls.b);
        return a;
      },
    });
    const runId = await enqueue([def]);
    // A "process" claims the run, finishes step a, and dies (never releases it).
    const db = await getDb();
    const claimed = await claimNextRun(db, { token: "dead-process#1", functionIds: [def.id], leaseMs: 400 });
    expect(claimed?.run.id).toBe(runId);
    expect(await saveStep(db, { runId, stepId: "a", output: { data: 41 }, token: "dead-process#1" })).toBe("saved");

    await start([def]);
    const row = await waitForStatus(runId, "completed");
    expect(row.output).toBe(41); // step a's stored result, not a new run of it
    expect(calls).toEqual({ a: 0, b: 1 });
    expect(row.attempt).toBe(2); // the crashed attempt counts
    // The dead process can no longer write.
    expect(await saveStep(db, { runId, stepId: "zombie", output: { data: 1 }, token: "dead-process#1" })).toBe("lease-lost");
  });

  it("on PGlite-style recovery takes over a dead process's runs at start without waiting for the lease", async () => {
    const def = job("t-recover", { handler: async () => "done" });
    const runId = await enqueue([def]);
    const db = await getDb();
    await claimNextRun(db, { token: "previous-process#1", functionIds: [def.id], leaseMs: 60_000 });
    await start([def], {}, true);
    // Far below the 60 s lease: recovery at start does not wait for it to lapse.
    const row = await waitForStatus(runId, "completed", 30_000);
    expect(row.attempt).toBe(2);
  });

  it("fails and runs the failure handler when a crash used up the last attempt", async () => {
    let failure: Failure | undefined;
    let ran = false;
    const def = job("t-crash-last", {
      retries: 0,
      handler: async () => {
        ran = true;
      },
      onFailure: async (ctx) => {
        failure = ctx as Failure;
      },
    });
    const runId = await enqueue([def]);
    await claimNextRun(await getDb(), { token: "dead#1", functionIds: [def.id], leaseMs: 200 });
    await start([def]);
    await waitForStatus(runId, "failed");
    expect(ran).toBe(false);
    expect(failure!.error.name).toBe("JobInterruptedError");
  });

  it("bounds concurrency per process and per function", async () => {
    let now = 0;
    let peak = 0;
    const work = async () => {
      now++;
      peak = Math.max(peak, now);
      await sleep(120);
      now--;
    };
    const def = job("t-conc", { handler: async ({ step }) => step.run("work", work) });
    const ids = await Promise.all(Array.from({ length: 6 }, () => enqueue([def])));
    await start([def], { concurrency: 2 });
    for (const id of ids) await waitForStatus(id, "completed");
    expect(peak).toBe(2);

    await runners.pop()!.stop();
    now = 0;
    peak = 0;
    const single = job("t-conc-1", { concurrency: 1, handler: async ({ step }) => step.run("work", work) });
    const ids1 = await Promise.all(Array.from({ length: 4 }, () => enqueue([single])));
    await start([single], { concurrency: 4 });
    for (const id of ids1) await waitForStatus(id, "completed");
    expect(peak).toBe(1);
  });

  it("when stopping, gives an unfinished run back without counting the attempt", async () => {
    let started = false;
    const def = job("t-stop", {
      handler: async ({ signal }) => {
        started = true;
        await new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason)));
      },
    });
    const runId = await enqueue([def]);
    const r = await start([def]);
    await waitFor(async () => started);
    await r.stop({ drainMs: 0 });
    const row = await runRow(runId);
    expect(row).toMatchObject({ status: "queued", attempt: 0, lockedBy: null });
  });

  it("retries a failure handler that throws until it succeeds", async () => {
    let calls = 0;
    const def = job("t-failure-retry", {
      retries: 0,
      handler: async () => {
        throw new Error("nope");
      },
      onFailure: async () => {
        calls++;
        if (calls === 1) throw new Error("database hiccup");
      },
    });
    const runId = await enqueue([def]);
    await start([def]);
    await waitForStatus(runId, "failed");
    expect(calls).toBe(2);
  });
});
