import { dbHandle } from "@/lib/foundation/db/client";
import { jobFunctions } from "../registry";
import { EmbeddedRunner } from "./embedded-runner";
import { newInstanceId, runnerOptionsFromEnv, type RunnerOptions } from "./runner-options";

// One runner per process, on globalThis like the database handle, so Next's
// separate route bundles (and dev reloads) share it instead of starting two.
const holder = globalThis as unknown as { __printStudioJobRunner?: EmbeddedRunner };

/** Starts this process's embedded runner (idempotent). Options override the environment (tests, benchmarks). */
export async function startJobRunner(overrides: Partial<RunnerOptions> = {}): Promise<EmbeddedRunner> {
  if (holder.__printStudioJobRunner) return holder.__printStudioJobRunner;
  const options: RunnerOptions = { ...runnerOptionsFromEnv(), instanceId: newInstanceId(), ...overrides };
  const runner = new EmbeddedRunner(await jobFunctions(), options, async () => (await dbHandle()).db);
  holder.__printStudioJobRunner = runner;
  try {
    const handle = await dbHandle();
    await runner.start({ recoverForeignLeases: handle.driver === "pglite" });
  } catch (err) {
    holder.__printStudioJobRunner = undefined;
    throw err;
  }
  return runner;
}

export async function stopJobRunner(opts: { drainMs?: number } = {}): Promise<void> {
  const runner = holder.__printStudioJobRunner;
  holder.__printStudioJobRunner = undefined;
  await runner?.stop(opts);
}

export function jobRunner(): EmbeddedRunner | undefined {
  return holder.__printStudioJobRunner;
}

/** Nudges the runner to look for work now; a no-op when none runs in this process. */
export function wakeJobRunner(): void {
  holder.__printStudioJobRunner?.wake();
}

/** Warms every job's engine (models) in the background; failures are logged, not fatal. */
export async function warmUpJobs(): Promise<void> {
  await Promise.all(
    (await jobFunctions()).map(async (d) => {
      if (!d.warmUp) return;
      const started = Date.now();
      try {
        await d.warmUp();
        console.log(`[jobs] ${d.id} warmed up in ${Date.now() - started} ms`);
      } catch (err) {
        console.error(`[jobs] warming up ${d.id} failed (its first job will load it instead):`, err);
      }
    }),
  );
}
