import { defineConfig } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT ?? 3200);
const baseURL = `http://127.0.0.1:${PORT}`;
const DATA_DIR = process.env.E2E_DATA_DIR ?? ".data-e2e";

// Runs against a production build (`npm run build` first) on a throwaway data
// folder, with Debian's Chromium: nothing is downloaded.
export default defineConfig({
  testDir: "e2e",
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
    },
  },
  webServer: {
    command: `rm -rf ${DATA_DIR} && node scripts/start.mjs`,
    url: `${baseURL}/signin`,
    reuseExistingServer: false,
    timeout: 120_000,
    // OPERATOR_TOKEN lets specs grant tokens to their fresh accounts (POST /v1/operator/grants) for paid services.
    env: { PORT: String(PORT), HOSTNAME: "127.0.0.1", DATA_DIR, DEMO_ACCOUNT: "never", SIGNUP_TOKENS: "100",
      // Every spec signs up a fresh account from 127.0.0.1: more than the default 20 sign-ups per IP an hour.
      REGISTER_PER_HOUR: "1000", DATABASE_URL: "", OPERATOR_TOKEN: process.env.E2E_OPERATOR_TOKEN ?? "e2e-operator-token-not-a-secret" },
  },
});
