import { jobsMode } from "./jobs-mode";
import { onShutdown } from "@/lib/foundation/graceful-shutdown";
import { startJobRunner, stopJobRunner, warmUpJobs } from "./runner/runner-instance";
import { warmUpAtStart } from "./runner/runner-options";

/**
 * At server start: warm every job's engine (the model) in the background so the
 * first job does not pay the model's load time, and run the embedded runner
 * unless Inngest is configured. Never called during `next build`.
 */
export async function startJobsAtServerStart(): Promise<void> {
  // First, so the model loads (in its worker) while the database opens.
  if (warmUpAtStart()) void warmUpJobs();
  if (jobsMode() === "embedded") {
    const runner = await startJobRunner();
    console.log(`[jobs] embedded durable runner started (${runner.options.concurrency} at a time, instance ${runner.options.instanceId})`);
    onShutdown(async () => {
      await stopJobRunner();
      console.log("[jobs] embedded runner stopped: running jobs finished or were given back for the next start");
    });
  } else {
    console.log("[jobs] async jobs go to Inngest; this server runs them when Inngest calls /api/inngest");
  }
}
