// The authentication step alone, in-process: authenticateAccount() for an access
// token and for an API key against the same account, interleaved in rounds, on
// the driver DATABASE_URL names (PGlite when empty). Both paths are served from
// the process caches once warm (lib/domain/identity/principal-cache.ts, lib/domain/identity/key-cache.ts),
// so the two figures should match. `npx tsx bench/auth-bench.ts` runs both drivers.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { withFreshDatabase } from "./http-bench";

const CALLS = 20_000;
const ROUNDS = 5;

async function measure() {
  const { getDb, closeDb } = await import("@/lib/foundation/db/client");
  const { createAccount } = await import("@/lib/domain/identity/create-account");
  const { issueAccessToken } = await import("@/lib/domain/identity/access-token");
  const { createApiKey } = await import("@/lib/domain/identity/api-keys");
  const { authenticateAccount } = await import("@/lib/services/sign-in/authenticate-account");
  const { processKeyCache, resetProcessKeyCache } = await import("@/lib/domain/identity/key-cache");
  const db = await getDb();
  const acc = await createAccount(db, { email: `auth-bench-${Date.now()}@example.com`, password: "bench passphrase 123", name: "Bench", verified: true, signupTokens: 10 });
  const { token } = await issueAccessToken(acc);
  const { key } = await createApiKey(db, acc.id, "bench");
  const req = (t: string) => new Request("http://localhost/v1/account", { headers: { authorization: `Bearer ${t}` } });
  await authenticateAccount(req(key), db);
  for (let i = 0; i < 200 && !processKeyCache().isLive; i++) await new Promise((r) => setTimeout(r, 25));
  const us: Record<"token" | "key", number[]> = { token: [], key: [] };
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 ? (["key", "token"] as const) : (["token", "key"] as const);
    for (const which of order) {
      const r = req(which === "token" ? token : key);
      await authenticateAccount(r, db);
      const t0 = performance.now();
      for (let i = 0; i < CALLS; i++) await authenticateAccount(r, db);
      us[which].push(((performance.now() - t0) * 1000) / CALLS);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const result = {
    driver: process.env.DATABASE_URL ? "PostgreSQL" : "PGlite",
    keyFeed: processKeyCache().feed.kind,
    tokenUsPerCall: +median(us.token).toFixed(2),
    keyUsPerCall: +median(us.key).toFixed(2),
    keyVsToken: +(median(us.token) / median(us.key)).toFixed(2),
  };
  await resetProcessKeyCache();
  await closeDb();
  return result;
}

function inChild(env: Record<string, string>) {
  const out = execFileSync("npx", ["tsx", "bench/auth-bench.ts", "--child"], { env: { ...process.env, ...env }, encoding: "utf8" });
  return JSON.parse(out.trim().split("\n").pop()!);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (process.argv.includes("--child")) {
    measure().then((r) => {
      console.log(JSON.stringify(r));
      process.exit(0);
    });
  } else {
    (async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-auth-"));
      const rows = [inChild({ DATA_DIR: dir, DATABASE_URL: "", AUTH_SECRET: "bench-secret-bench-secret-bench-secret-0123" })];
      fs.rmSync(dir, { recursive: true, force: true });
      const pg = await withFreshDatabase(async (url) => inChild({ DATABASE_URL: url, DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "bench-auth-")), AUTH_SECRET: "bench-secret-bench-secret-bench-secret-0123" }));
      if (pg) rows.push(pg);
      console.table(rows);
    })().catch((err) => {
      console.error(err);
      process.exit(1);
    });
  }
}
