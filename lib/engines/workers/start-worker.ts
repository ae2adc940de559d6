import path from "node:path";
import { Worker, type WorkerOptions } from "node:worker_threads";

/**
 * Starts an engine's worker thread; every engine (background removal, preflight
 * analysis, faces, fixes) starts its threads through here, so there is one rule.
 * `entry` is the worker's TypeScript file from the project root, e.g.
 * "lib/engines/ml/background-removal/worker.ts".
 *
 * - Under Next.js (`next dev`, the standalone server) `bundled` is the caller's
 *   literal `new Worker(new URL("./worker.ts", import.meta.url), options)`.
 *   Turbopack compiles that entry with its imports into the build output and the
 *   file tracer follows it (native packages listed in `serverExternalPackages`
 *   are traced from node_modules), so production runs no TypeScript compiler and
 *   reads nothing from the source tree. The expression must stay literal at the
 *   call site: the bundler recognises only that form.
 * - In the worker app (`npm run worker`, bundled by scripts/build-worker.mjs),
 *   every worker entry is compiled beside it under WORKER_BUNDLE_DIR.
 * - Everywhere else (vitest, benchmarks, scripts) the TypeScript source runs
 *   through tsx. Node 20 ignores `--import` in a worker's execArgv, so a tiny
 *   bootstrap registers tsx's require hook and then loads the entry.
 */
export function startWorker(entry: string, bundled: () => Worker, options: WorkerOptions = {}): Worker {
  if (process.env.NEXT_RUNTIME) return bundled();
  const bundleDir = process.env.WORKER_BUNDLE_DIR;
  if (bundleDir) return new Worker(path.resolve(/* turbopackIgnore: true */ bundleDir, entry.replace(/\.ts$/, ".mjs")), options);
  const source = path.join(/* turbopackIgnore: true */ process.cwd(), entry);
  const bootstrap = `require("tsx/cjs/api").register(); require(${JSON.stringify(source)});`;
  return new Worker(bootstrap, { ...options, eval: true });
}
