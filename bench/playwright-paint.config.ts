import path from "node:path";
import { defineConfig } from "@playwright/test";
import base from "../playwright.config";

// The gallery page's paint bench (bench/gallery-paint.spec.ts) on the e2e setup: the same
// production build, servers and Chromium, but only this file, never in CI's Playwright run.
//   npm run build && npx playwright test -c bench/playwright-paint.config.ts
// The servers' commands are written from the project's root (a webServer runs in the config's folder by default).
const root = path.resolve(__dirname, "..");
const webServer = (Array.isArray(base.webServer) ? base.webServer : base.webServer ? [base.webServer] : []).map((s) => ({ ...s, cwd: root }));
export default defineConfig({ ...base, testDir: ".", testMatch: "gallery-paint.spec.ts", webServer });
