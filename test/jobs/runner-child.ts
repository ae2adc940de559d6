// A separate server process for the crash-recovery test: it runs the embedded
// runner on the parent's database and reports each finished step on stdout
// ("STEP <runId> <stepId>"), so the parent knows when to kill it mid-job.
import { getDb } from "@/lib/foundation/db/client";
import { jobSteps } from "@/lib/foundation/db/schema";
import { startJobRunner } from "@/lib/domain/jobs/runner/runner-instance";
import { registerAppJobs } from "@/inngest/register";

async function main() {
  registerAppJobs();
  await startJobRunner({ pollMs: 50, concurrency: 2 });
  console.log("READY");
  const db = await getDb();
  const seen = new Set<string>();
  for (;;) {
    for (const s of await db.select({ runId: jobSteps.runId, stepId: jobSteps.stepId }).from(jobSteps)) {
      const key = `${s.runId} ${s.stepId}`;
      if (!seen.has(key)) {
        seen.add(key);
        console.log(`STEP ${key}`);
      }
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
