import type { AnyJobDefinition } from "./types";

/**
 * The app's job functions, handed to lib/domain/jobs at start by the app itself
 * (instrumentation.ts, the worker app, the CLI, the test setup), so that the
 * job framework never imports the app that uses it. Registered as a loader: the
 * functions import the services that start jobs, and are loaded on first use.
 *
 * Kept on globalThis: Next.js loads this module once per route bundle, and every
 * copy must see what instrumentation.ts registered.
 */
type Loader = () => Promise<readonly AnyJobDefinition[]>;
const holder = globalThis as unknown as { __printStudioJobLoader?: Loader; __printStudioJobs?: Promise<readonly AnyJobDefinition[]> };

export function registerJobFunctions(load: Loader): void {
  if (holder.__printStudioJobLoader) return; // the first registration wins: every entry point passes the same list
  holder.__printStudioJobLoader = load;
}

/** The registered job functions; throws when the entry point registered none (a wiring bug, never a caller's). */
export function jobFunctions(): Promise<readonly AnyJobDefinition[]> {
  const load = holder.__printStudioJobLoader;
  if (!load) throw new Error("No job functions are registered: the entry point must call registerJobFunctions (see instrumentation.ts)");
  holder.__printStudioJobs ??= load();
  return holder.__printStudioJobs;
}
