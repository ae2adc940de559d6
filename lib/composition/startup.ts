import { config } from "@/lib/foundation/config";
import { dbHandle, getDb } from "@/lib/foundation/db/client";
import { startSweeper } from "@/lib/composition/maintenance/sweeper";
import { serverlessProblems } from "@/lib/composition/serverless-checks";
import { ensureDemoStudio } from "@/lib/composition/demo/ensure-demo-studio";

/**
 * Runs once when the server starts (instrumentation.ts): open and migrate the
 * database now rather than on the first request, and print the demo account.
 */
export async function startServer(): Promise<void> {
  // Async jobs: the model starts loading now, beside the database opening; then the
  // embedded runner. `next build` also loads this file and must not start them.
  const serving = process.env.NEXT_PHASE !== "phase-production-build";
  const missing = serving ? serverlessProblems() : [];
  if (missing.length > 0) throw new Error(`This serverless deployment is missing settings:\n- ${missing.join("\n- ")}\n(see README, "Deploying")`);
  const jobs = serving ? import("@/lib/domain/jobs/server-start").then((m) => m.startJobsAtServerStart()) : undefined;
  jobs?.catch(() => {}); // awaited below; a database that fails to open is reported by dbHandle() first
  const handle = await dbHandle();
  const where = handle.driver === "pglite" ? `embedded PGlite in ${config().dataDir}` : "PostgreSQL (DATABASE_URL)";
  console.log(`[print-studio] database ready: ${where}`);
  const demo = await ensureDemoStudio(handle.db);
  if (demo) {
    console.log(
      [
        "",
        "  ┌─ Demo account ─────────────────────────────────",
        `  │ email:    ${demo.email}`,
        `  │ password: ${demo.password}`,
        "  └────────────────────────────────────────────────",
        "",
      ].join("\n"),
    );
  }
  if (serving) startSweeper(getDb);
  await jobs;
}
