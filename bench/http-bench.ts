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
const DURATION = Number(process.env.BENCH_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8);

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

function medianOf(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** The median round of each figure (robust to a round that another process's burst slowed). */
function median(name: string, rows: Row[]): Row {
  const med = (k: "req/s" | "p50 ms" | "p99 ms") => Math.round(medianOf(rows.map((r) => r[k])));
  return { route: name, "req/s": med("req/s"), "p50 ms": med("p50 ms"), "p99 ms": med("p99 ms"), non2xx: rows.reduce((s, r) => s + r.non2xx, 0), errors: rows.reduce((s, r) => s + r.errors, 0) };
}

/**
 * One server (PGlite when databaseUrl is empty, else PostgreSQL): ROUNDS rounds
 * of the bare route, the access-token path and the API-key path, DURATION
 * seconds each. Figures are the median round; "key vs token" is the median of
 * the rounds' own ratios.
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
    // Short runs of the three paths back to back, the order rotated every round: a burst of load from
    // elsewhere on the machine lands on one round, and each round's ratios compare neighbours in time.
    const paths = [
      { name: "bare /api/health", url: `${BASE}/api/health`, headers: {} },
      { name: "GET /v1/account (JWT)", url: `${BASE}/v1/account`, headers: jwtHeaders },
      { name: "GET /v1/account (API key)", url: `${BASE}/v1/account`, headers: keyHeaders },
    ];
    const rounds: Row[][] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const measured: Row[] = [];
      for (let k = 0; k < paths.length; k++) {
        const p = paths[(k + round) % paths.length]!;
        measured.push(row(p.name, await run(p.url, p.headers)));
      }
      rounds.push(paths.map((p) => measured.find((m) => m.route === p.name)!));
    }
    const rows = paths.map((p, i) => median(p.name, rounds.map((r) => r[i]!)));
    const perRound = rounds.map(([b, j, k]) => ({ bare: b!["req/s"], jwt: j!["req/s"], key: k!["req/s"], keyVsToken: +(k!["req/s"] / j!["req/s"]).toFixed(2) }));
    const keyVsToken = +medianOf(perRound.map((r) => r.keyVsToken)).toFixed(2);
    return { driver: databaseUrl ? "PostgreSQL" : "PGlite", connections: CONNECTIONS, seconds: DURATION, rounds: ROUNDS, rows, perRound, keyVsToken };
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
    console.log(`\n${r.driver}: ${r.connections} connections, ${r.rounds} rounds of ${r.seconds} s per path (median round)`);
    console.table(r.rows);
    const bare = r.rows[0]!["req/s"];
    for (const x of r.rows.slice(1)) console.log(`${x.route}: ${(x["req/s"] / bare).toFixed(2)}x the bare route`);
    console.table(r.perRound);
    console.log(`API key vs access token: ${r.keyVsToken}x (median of the rounds' ratios)`);
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
