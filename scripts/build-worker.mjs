// Compiles the worker app (inngest/worker-server.ts) and every engine worker thread
// entry into dist/worker/, so `npm run worker` runs plain JavaScript: no tsx, no
// TypeScript at run time. Packages stay in node_modules (the worker app runs on a
// long-lived host with the project's dependencies installed); only our code is bundled.
import fs from "node:fs";
import path from "node:path";
import { build } from "esbuild";

const OUT = "dist/worker";

/** Engine worker threads: files named worker.ts or *-worker.ts under lib/ (lib/engines/workers/start-worker.ts starts them). */
function workerEntries(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return p === path.join("lib", "engines", "workers") ? [] : workerEntries(p);
    return /(^|-)worker\.ts$/.test(e.name) && !e.name.endsWith(".test.ts") ? [p] : [];
  });
}

const entryPoints = ["inngest/worker-server.ts", ...workerEntries("lib")];
fs.rmSync(OUT, { recursive: true, force: true });
await build({
  entryPoints,
  outdir: OUT,
  outbase: ".",
  outExtension: { ".js": ".mjs" },
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  packages: "external",
  tsconfig: "tsconfig.json",
  sourcemap: true,
  logLevel: "warning",
  // Bundled CommonJS-style code (require, __dirname) inside ES modules.
  banner: { js: "import { createRequire as __cr } from 'node:module'; import { fileURLToPath as __fu } from 'node:url'; const require = __cr(import.meta.url); const __filename = __fu(import.meta.url); const __dirname = __fu(new URL('.', import.meta.url));" },
});
console.log(`worker app built: ${entryPoints.length} entries in ${OUT}/`);
