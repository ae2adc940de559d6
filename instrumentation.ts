// Next.js calls register() once per server process at start.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // The app hands its job functions to lib/domain/jobs before anything can start a job.
  (await import("./inngest/register")).registerAppJobs();
  const { startServer } = await import("./lib/composition/startup");
  try {
    await startServer();
  } catch (err) {
    // Next.js would keep serving after a failed hook, answering every request with
    // a 500 for as long as it runs. A server that cannot start must stop, saying why,
    // so that a supervisor (or the person at the terminal) sees it and restarts it.
    if (process.env.NEXT_PHASE === "phase-production-build") throw err;
    console.error(`[print-studio] cannot start: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
}
