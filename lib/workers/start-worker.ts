import { fileURLToPath } from "node:url";
import { Worker, type WorkerOptions } from "node:worker_threads";

/**
 * Starts an engine's worker thread; every engine (background removal, preflight
 * analysis, faces, fixes) starts its threads through here, so there is one rule:
 *
 * - Under Next.js (`next dev`, `next start`, the standalone server) `bundled` is
 *   the caller's literal `new Worker(new URL("./x-worker.ts", import.meta.url), options)`.
 *   Turbopack compiles that entry with its imports into the build output and the
 *   file tracer follows it (native packages listed in `serverExternalPackages`
 *   are traced from node_modules), so production runs no TypeScript compiler and
 *   reads nothing from the source tree. The expression must stay literal at the
 *   call site: the bundler recognises only that form.
 * - Everywhere else (vitest, benchmarks, scripts) the TypeScript source runs
 *   through tsx. Node 20 ignores `--import` in a worker's execArgv, so a tiny
 *   bootstrap registers tsx's require hook and then loads the entry.
 */
export function startWorker(source: URL, bundled: () => Worker, options: WorkerOptions = {}): Worker {
  if (process.env.NEXT_RUNTIME) return bundled();
  const bootstrap = `require("tsx/cjs/api").register(); require(${JSON.stringify(fileURLToPath(source))});`;
  return new Worker(bootstrap, { ...options, eval: true });
}
