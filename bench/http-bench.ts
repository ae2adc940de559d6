// Throughput and latency of an authenticated GET /v1/account (the full wrapper:
// auth + database lookup + rate limit + JSON) beside a bare Next route
// (/api/health) on the same production (standalone) server, in the same run.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";

const PORT = 3310;
const BASE = `http://127.0.0.1:${PORT}`;
const CONNECTIONS = 50;
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);

async function waitFor(url: string, ms = 60_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`server did not start: ${url}`);
}

function run(url: string, headers: Record<string, string> = {}) {
  return new Promise<autocannon.Result>((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers }, (err, res) => (err ? reject(err) : resolve(res)));
  });
}

export async function httpBench() {
  if (!fs.existsSync(path.join(process.cwd(), process.env.NEXT_DIST_DIR ?? ".next", "BUILD_ID"))) {
    throw new Error("run `npm run build` first: the HTTP benchmark measures the production server");
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-http-"));
  // The limiter still counts every request; the budget is raised so it never refuses.
  const server: ChildProcess = spawn(process.execPath, ["scripts/start.mjs"], {
    env: { ...process.env, PORT: String(PORT), HOSTNAME: "127.0.0.1", DATA_DIR: dataDir, DATABASE_URL: process.env.BENCH_DATABASE_URL ?? "", RATE_LIMIT_PER_MINUTE: "100000000", DEMO_ACCOUNT: "never" },
    stdio: "ignore",
    detached: true,
  });
  try {
    await waitFor(`${BASE}/api/health`);
    const email = `bench-${Date.now()}@example.com`;
    const password = "bench passphrase 123";
    await fetch(`${BASE}/v1/auth/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email, password, name: "Bench" }) });
    const tokenRes = await fetch(`${BASE}/v1/auth/token`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email, password }) });
    const { access_token } = (await tokenRes.json()) as { access_token: string };
    const keyRes = await fetch(`${BASE}/v1/api-keys`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${access_token}` }, body: JSON.stringify({ name: "bench" }) });
    const { key } = (await keyRes.json()) as { key: string };

    // Warm both paths (route compilation caches, connection setup) before measuring.
    await run(`${BASE}/api/health`);
    const bare = await run(`${BASE}/api/health`);
    const jwt = await run(`${BASE}/v1/account`, { authorization: `Bearer ${access_token}` });
    const apiKey = await run(`${BASE}/v1/account`, { authorization: `Bearer ${key}` });
    const row = (name: string, r: autocannon.Result) => ({
      route: name,
      "req/s": Math.round(r.requests.average),
      "p50 ms": r.latency.p50,
      "p99 ms": r.latency.p99,
      non2xx: r.non2xx,
      errors: r.errors,
    });
    return { connections: CONNECTIONS, seconds: DURATION, rows: [row("bare /api/health", bare), row("GET /v1/account (JWT)", jwt), row("GET /v1/account (API key)", apiKey)] };
  } finally {
    if (server.pid) process.kill(-server.pid, "SIGTERM");
    await new Promise((r) => setTimeout(r, 500));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
