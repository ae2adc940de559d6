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
