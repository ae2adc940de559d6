import { defineConfig } from "vitest/config";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";

// Engine tests: files that never open a database (models, PDF, fetcher, storage
// drivers), plus the QR decode sweep, which renders and decodes thousands of cards
// and whose database use qr-generate.test.ts already covers, and the 114-frame QR
// sort sequence (card reader and rules; its database use is a Bulk QR generation).
// CI's PostgreSQL pass sets TEST_DB_ONLY to skip them: they ran in the PGlite pass.
const ENGINE_ONLY = ["lib/engines/ml/**", "lib/domain/net/**", "lib/domain/storage/**", "lib/engines/pdf/**", "lib/engines/imaging/**", "lib/services/qr/**", "test/api/qr-decode.test.ts", "test/api/qr-sort-sequence.test.ts"];


export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL(".", import.meta.url)) } },
  test: {
    include: ["**/*.test.ts"],
    exclude: ["node_modules/**", ".next/**", ".next-*/**", "e2e/**", ".data/**", ".data-*/**", ...(process.env.TEST_DB_ONLY ? ENGINE_ONLY : [])],
    environment: "node",
    // Each file gets its own fresh database (see test/setup-db.ts); files run in
    // separate forks so PGlite instances and env never leak between them.
    pool: "forks",
    // Vitest's default (one fewer than the cores) is a single fork on the 2-core machines CI and
    // users run: most files wait on a database, a server or a job rather than compute, so two
    // forks keep both cores busy (the README's Tests section has the figures); VITEST_MAX_WORKERS overrides.
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS) || Math.max(2, availableParallelism() - 1),
    reporters: ["default", "./test/summary-reporter.ts"],
    // One migrated PGlite made per run, copied for each file (test/global-setup.ts).
    globalSetup: ["./test/global-setup.ts"],
    setupFiles: ["./test/setup-env.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
