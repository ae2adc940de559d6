// Throughput and latency of an authenticated GET /v1/account (the full wrapper:
// auth + database lookup + rate limit + JSON) beside a bare Next route
// (/api/health) on the same production (standalone) server, in the same run.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import autocannon from "autocannon";
import postgres from "postgres";

const PORT = 3310;
const BASE = `http://127.0.0.1:${PORT}`;
const CONNECTIONS = 50;
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);

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

type Row = { route: string; "req/s": number; "p50 ms": number; "p99 ms": number; non2xx: number; errors: number };

function row(name: string, r: autocannon.Result): Row {
  return { route: name, "req/s": Math.round(r.requests.average), "p50 ms": r.latency.p50, "p99 ms": r.latency.p99, non2xx: r.non2xx, errors: r.errors };
}

/** Mean of the rounds (throughput averaged, latencies the rounds' median-ish mean). */
function mean(name: string, rows: Row[]): Row {
  const avg = (k: "req/s" | "p50 ms" | "p99 ms") => Math.round(rows.reduce((s, r) => s + r[k], 0) / rows.length);
  return { route: name, "req/s": avg("req/s"), "p50 ms": avg("p50 ms"), "p99 ms": avg("p99 ms"), non2xx: rows.reduce((s, r) => s + r.non2xx, 0), errors: rows.reduce((s, r) => s + r.errors, 0) };
}

/**
 * One server (PGlite when databaseUrl is empty, else PostgreSQL). The token and
 * key paths are measured in alternating rounds (ROUNDS each, the order swapped
 * every round) so that machine noise falls on both alike.
 */
export async function httpBench(databaseUrl = process.env.BENCH_DATABASE_URL ?? "") {
  if (!fs.existsSync(path.join(process.cwd(), process.env.NEXT_DIST_DIR ?? ".next", "BUILD_ID"))) {
    throw new Error("run `npm run build` first: the HTTP benchmark measures the production server");
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-http-"));
  // The limiter still counts every request; the budget is raised so it never refuses.
  const server: ChildProcess = spawn(process.execPath, ["scripts/start.mjs"], {
    env: { ...process.env, PORT: String(PORT), HOSTNAME: "127.0.0.1", DATA_DIR: dataDir, DATABASE_URL: databaseUrl, RATE_LIMIT_PER_MINUTE: "100000000", DEMO_ACCOUNT: "never" },
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
    const jwtHeaders = { authorization: `Bearer ${access_token}` };
    const keyHeaders = { authorization: `Bearer ${key}` };

    // Warm every path (route compilation caches, connections, the key cache's LISTEN) before measuring.
    await run(`${BASE}/api/health`);
    await run(`${BASE}/v1/account`, jwtHeaders);
    await run(`${BASE}/v1/account`, keyHeaders);
    const bare: Row[] = [];
    const jwt: Row[] = [];
    const apiKey: Row[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      bare.push(row("bare", await run(`${BASE}/api/health`)));
      const pair = [
        async () => jwt.push(row("jwt", await run(`${BASE}/v1/account`, jwtHeaders))),
        async () => apiKey.push(row("key", await run(`${BASE}/v1/account`, keyHeaders))),
      ];
      if (round % 2) pair.reverse();
      for (const measure of pair) await measure();
    }
    const rows = [mean("bare /api/health", bare), mean("GET /v1/account (JWT)", jwt), mean("GET /v1/account (API key)", apiKey)];
    const perRound = bare.map((b, i) => ({ bare: b["req/s"], jwt: jwt[i]!["req/s"], key: apiKey[i]!["req/s"], keyVsToken: +(apiKey[i]!["req/s"] / jwt[i]!["req/s"]).toFixed(2) }));
    return { driver: databaseUrl ? "PostgreSQL" : "PGlite", connections: CONNECTIONS, seconds: DURATION, rounds: ROUNDS, rows, perRound, keyVsToken: +(rows[2]!["req/s"] / rows[1]!["req/s"]).toFixed(2) };
  } finally {
    if (server.pid) process.kill(-server.pid, "SIGTERM");
    await new Promise((r) => setTimeout(r, 500));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A fresh PostgreSQL database for fn, dropped after; undefined when PostgreSQL is unreachable. */
export async function withFreshDatabase<T>(fn: (url: string) => Promise<T>): Promise<T | undefined> {
  const adminUrl = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  const name = `bench_http_${Date.now()}`;
  try {
    await admin.unsafe(`create database ${name}`);
  } catch (err) {
    console.warn(`PostgreSQL unavailable at ${adminUrl}: ${(err as Error).message}`);
    await admin.end();
    return undefined;
  }
  try {
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    return await fn(url.toString());
  } finally {
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

/** Both drivers, one after the other, each against its own baseline. */
export async function httpBenchBothDrivers() {
  const runs = [await httpBench("")];
  const pg = await withFreshDatabase((url) => httpBench(url));
  if (pg) runs.push(pg);
  return runs;
}

function print(runs: Awaited<ReturnType<typeof httpBenchBothDrivers>>) {
  for (const r of runs) {
    console.log(`\n${r.driver}: ${r.connections} connections, ${r.rounds} rounds of ${r.seconds} s per path`);
    console.table(r.rows);
    const bare = r.rows[0]!["req/s"];
    for (const x of r.rows.slice(1)) console.log(`${x.route}: ${(x["req/s"] / bare).toFixed(2)}x the bare route`);
    console.table(r.perRound);
    console.log(`API key vs access token: ${r.keyVsToken}x`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  httpBenchBothDrivers()
    .then((runs) => {
      print(runs);
      fs.mkdirSync("bench/results", { recursive: true });
      fs.writeFileSync("bench/results/http.json", JSON.stringify(runs, null, 2));
    })
    .catch((err) => {
      console.error(err);
      process.exit(1);
    });
}

export { print as printHttpBench };
