import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

// Engine tests: files that never open a database (models, PDF, fetcher, storage
// drivers), plus the QR decode sweep, which renders and decodes thousands of cards
// and whose database use qr-generate.test.ts already covers. CI's PostgreSQL pass
// sets TEST_DB_ONLY to skip them: they ran in the PGlite pass.
const ENGINE_ONLY = ["lib/ml/**", "lib/net/**", "lib/storage/**", "lib/pdf/**", "lib/imaging/**", "lib/services/qr/**", "test/api/qr-decode.test.ts"];

// What differs between Node lines lives in the process: worker-thread transfers,
// native addons, WebAssembly, fetch. CI's Node 24 pass sets TEST_NODE_LINE to run the
// engine tests above, the worker and job-runner tests, and the API tests of every
// service that runs an engine or fetches (their jobs, files and refunds), not the
// whole suite again.
const NODE_LINE = [...ENGINE_ONLY, "lib/workers/**", "test/jobs/**", "test/startup/**", "test/api/{bg-remove,preflight,ai-fix,face,uploads,billing,webhooks,qr}*.test.ts"];

export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL(".", import.meta.url)) } },
  test: {
    include: process.env.TEST_NODE_LINE ? NODE_LINE.map((p) => (p.endsWith("/**") ? `${p}/*.test.ts` : p)) : ["**/*.test.ts"],
    exclude: ["node_modules/**", ".next/**", ".next-*/**", "e2e/**", ".data/**", ".data-*/**", ...(process.env.TEST_DB_ONLY ? ENGINE_ONLY : [])],
    environment: "node",
    // Each file gets its own fresh database (see test/setup-db.ts); files run in
    // separate forks so PGlite instances and env never leak between them.
    pool: "forks",
    reporters: ["default", "./test/summary-reporter.ts"],
    setupFiles: ["./test/setup-env.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
