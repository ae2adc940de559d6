export type JobsMode = "inngest" | "embedded";

/**
 * Where async work runs, decided by the environment: any Inngest setting sends
 * events to Inngest (Cloud with keys, a dev or self-hosted server by URL);
 * without them the app's embedded durable runner executes the same functions.
 */
export function jobsMode(env: Record<string, string | undefined> = process.env): JobsMode {
  const dev = env.INNGEST_DEV?.trim().toLowerCase();
  const devOn = !!dev && dev !== "0" && dev !== "false";
  return env.INNGEST_SIGNING_KEY || env.INNGEST_EVENT_KEY || env.INNGEST_BASE_URL || devOn ? "inngest" : "embedded";
}

/**
 * Whether this process's /api/inngest offers the functions to Inngest. `off` on a
 * web app whose jobs run in the worker app (`npm run worker`), e.g. on Vercel: its
 * endpoint then answers 404, so no sync can route jobs to a serverless function.
 */
export function servesInngestFunctions(env: Record<string, string | undefined> = process.env): boolean {
  return jobsMode(env) === "inngest" && env.INNGEST_SERVE?.trim().toLowerCase() !== "off";
}
