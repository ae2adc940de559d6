import fs from "node:fs";
import { defineConfig } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT ?? 3200);
const baseURL = `http://127.0.0.1:${PORT}`;
const DATA_DIR = process.env.E2E_DATA_DIR ?? ".data-e2e";
// Card payments go to a local stand-in of the Stripe API (test/support/stripe-stand-in.ts),
// which serves the checkout page and sends signed webhooks back to the app.
const STRIPE_PORT = PORT + 1;
const STRIPE_WEBHOOK_SECRET = "whsec_e2e_not_a_secret";
// A second server with no Stripe settings, as the embedded quick start runs (e2e/no-stripe.spec.ts).
const NO_STRIPE_PORT = PORT + 2;
// A real SMTP server (test/support/smtp-test-server-process.ts) the app sends every e-mail to;
// specs read what arrived at its HTTP port (e2e/support/accounts.ts, emailTo).
const SMTP_PORT = PORT + 3;
const SMTP_HTTP_PORT = PORT + 4;

// Debian's headless shell (package chromium-headless-shell, which .ci/run installs) when it is
// there, else Debian's Chromium: the same engine without the browser's window and GPU layers.
// On these 2-core machines the whole suite took 9.1 min against 10.8 and 744 against 891
// CPU-seconds with it (same run order, same machine; the README's Tests section).
const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";
const CHROMIUM = process.env.CHROMIUM_PATH ?? (fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : "/usr/bin/chromium");

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
    // As a person who asked for less motion (app/globals.css): spinners and skeletons stand
    // still, so a page waiting on a job does not keep the software renderer drawing frames.
    reducedMotion: "reduce",
    launchOptions: {
      executablePath: CHROMIUM,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
    },
  },
  webServer: [
    {
      command: `npx tsx test/support/smtp-test-server-process.ts ${SMTP_PORT} ${SMTP_HTTP_PORT}`,
      url: `http://127.0.0.1:${SMTP_HTTP_PORT}/health`,
      reuseExistingServer: false,
      timeout: 60_000,
    },
    {
      command: `npx tsx test/support/stripe-stand-in-server.ts ${STRIPE_PORT} ${baseURL}/api/stripe/webhook ${STRIPE_WEBHOOK_SECRET}`,
      url: `http://127.0.0.1:${STRIPE_PORT}/health`,
      reuseExistingServer: false,
      timeout: 60_000,
    },
    {
      command: `rm -rf ${DATA_DIR} && node scripts/start.mjs`,
      url: `${baseURL}/signin`,
      reuseExistingServer: false,
      timeout: 120_000,
      // OPERATOR_TOKEN lets specs grant tokens to their fresh accounts (POST /v1/operator/grants) for paid services.
      env: { PORT: String(PORT), HOSTNAME: "127.0.0.1", DATA_DIR, DEMO_ACCOUNT: "never", SIGNUP_BONUS_TOKENS: "100",
        // Every spec signs up a fresh account from 127.0.0.1: more than the default 20 sign-ups per IP an hour.
        REGISTER_PER_HOUR: "1000", DATABASE_URL: "", OPERATOR_TOKEN: process.env.E2E_OPERATOR_TOKEN ?? "e2e-operator-token-not-a-secret",
        STRIPE_SECRET_KEY: "sk_test_e2e_not_a_secret", STRIPE_WEBHOOK_SECRET, STRIPE_API_URL: `http://127.0.0.1:${STRIPE_PORT}`,
        SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}` },
    },
    {
      command: `rm -rf ${DATA_DIR}-no-stripe && node scripts/start.mjs`,
      url: `http://127.0.0.1:${NO_STRIPE_PORT}/signin`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: { PORT: String(NO_STRIPE_PORT), HOSTNAME: "127.0.0.1", DATA_DIR: `${DATA_DIR}-no-stripe`, DEMO_ACCOUNT: "never", SIGNUP_BONUS_TOKENS: "100",
        // No STRIPE_* here: the server starts as the quick start does, without card payments (mail to the harness's SMTP server, as above).
        REGISTER_PER_HOUR: "1000", DATABASE_URL: "", OPERATOR_TOKEN: process.env.E2E_OPERATOR_TOKEN ?? "e2e-operator-token-not-a-secret", SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}` },
    },
  ],
});
