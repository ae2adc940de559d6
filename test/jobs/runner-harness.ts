// Helpers for runner tests: test-only job definitions, a fast runner, and polling.
import { eq } from "drizzle-orm";
import { eventType } from "inngest";
import { z } from "zod";
import { getDb } from "@/lib/foundation/db/client";
import { jobRuns, jobSteps } from "@/lib/foundation/db/schema";
import { newId } from "@/lib/foundation/ids";
import { EmbeddedRunner } from "@/lib/domain/jobs/runner/embedded-runner";
import { enqueueRuns } from "@/lib/domain/jobs/runner/enqueue-runs";
import type { RunnerOptions } from "@/lib/domain/jobs/runner/runner-options";
import type { AnyJobDefinition } from "@/lib/domain/jobs/types";

export const testEvent = eventType("test/job.requested", { schema: z.object({ n: z.number() }) });

export const fastOptions = (over: Partial<RunnerOptions> = {}): RunnerOptions => ({
  concurrency: 2,
  pollMs: 20,
  leaseMs: 1_000,
  retryBaseMs: 20,
  retryMaxMs: 100,
  timeoutGraceMs: 150,
  instanceId: `test-${newId("i")}`,
  ...over,
});

export function runnerFor(defs: AnyJobDefinition[], over: Partial<RunnerOptions> = {}) {
  return new EmbeddedRunner(defs, fastOptions(over), getDb);
}

export async function enqueue(defs: AnyJobDefinition[], data: { n: number } = { n: 1 }, ts = Date.now()): Promise<string> {
  const db = await getDb();
  const [runId] = await enqueueRuns(db, defs, { id: newId("evt"), name: testEvent.name, data, ts });
  return runId!;
}

export async function runRow(runId: string) {
  const db = await getDb();
  const [row] = await db.select().from(jobRuns).where(eq(jobRuns.id, runId));
  return row!;
}

export async function stepIds(runId: string): Promise<string[]> {
  const db = await getDb();
  const rows = await db.select({ id: jobSteps.stepId }).from(jobSteps).where(eq(jobSteps.runId, runId));
  return rows.map((r) => r.id).sort();
}

/** Polls until `check` returns a value (not undefined/false), or fails after `timeoutMs`. */
export async function waitFor<T>(check: () => Promise<T | undefined | false>, timeoutMs = 30_000, what = "condition"): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export async function waitForStatus(runId: string, status: "completed" | "failed", timeoutMs = 30_000) {
  return waitFor(async () => {
    const row = await runRow(runId);
    return row.status === status ? row : undefined;
  }, timeoutMs, `run ${runId} to be ${status}`);
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
