import { registerJobFunctions } from "@/lib/domain/jobs/registry";

/**
 * Hands the app's job functions to lib/domain/jobs (the embedded runner and startJob).
 * Called by every entry point before it starts or enqueues a job:
 * instrumentation.ts, the worker app, the CLI, the test setup, benchmarks.
 * The list is imported on first use: the functions import the services.
 */
export function registerAppJobs(): void {
  registerJobFunctions(async () => (await import("./functions")).jobFunctions);
}
