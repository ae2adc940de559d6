// The cost of Idempotency-Key on a /v1 POST, on whichever driver the environment
// selects (DATABASE_URL set: PostgreSQL; else PGlite in DATA_DIR). Two routes:
// POST /v1/services/preflight/dpi-score (pure computation, no database write: the
// worst case, the key's own writes are all there is) and POST /v1/api-keys (one
// insert, like a creating POST). In-process calls, 10 at a time.
// Prints one JSON line for bench/run.ts.
import crypto from "node:crypto";
import * as apiKeys from "@/app/v1/api-keys/route";
import * as dpi from "@/app/v1/services/preflight/dpi-score/route";
import { createAccount } from "@/lib/domain/identity/create-account";
import { issueAccessToken } from "@/lib/domain/identity/access-token";
import { closeDb, dbHandle } from "@/lib/foundation/db/client";

const REQUESTS = 600;
const CONCURRENCY = 10;
const DPI = { route: dpi, path: "/v1/services/preflight/dpi-score", ok: 200, body: JSON.stringify({ widthPx: 3000, heightPx: 2000, canvasWidthInches: 12, canvasHeightInches: 8, productType: "framed_print" }) };
const KEYS = { route: apiKeys, path: "/v1/api-keys", ok: 201, body: JSON.stringify({ name: "bench" }) };
type Target = typeof DPI | typeof KEYS;

async function run(token: string, key: (i: number) => string | undefined, target: Target = DPI): Promise<number> {
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    for (let i = next++; i < REQUESTS; i = next++) {
      const headers: Record<string, string> = { authorization: `Bearer ${token}`, "content-type": "application/json", "x-forwarded-for": `198.51.100.${i % 250}` };
      const k = key(i);
      if (k) headers["idempotency-key"] = k;
      const res = await target.route.POST(new Request(`http://localhost:3000${target.path}`, { method: "POST", headers, body: target.body }), { params: Promise.resolve({}) });
      if (res.status !== target.ok) throw new Error(`status ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return REQUESTS / ((performance.now() - started) / 1000);
}

async function main() {
  process.env.RATE_LIMIT_PER_MINUTE = "1000000";
  const { db, driver } = await dbHandle();
  const account = await createAccount(db, { email: `bench-idem-${Date.now()}@example.com`, password: "bench passphrase 123", name: "Bench", verified: true, signupTokens: 0 });
  const { token } = await issueAccessToken(account);
  await run(token, () => undefined); // warm-up
  const plain = await run(token, () => undefined);
  const prefix = crypto.randomUUID();
  const fresh = await run(token, (i) => `${prefix}-${i}`);
  const replayKey = `${prefix}-replay`;
  await run(token, () => replayKey);
  const replay = await run(token, () => replayKey);
  const createPlain = await run(token, () => undefined, KEYS);
  const createKeyed = await run(token, (i) => `${prefix}-create-${i}`, KEYS);
  console.log(
    JSON.stringify({
      driver,
      "no key (req/s)": Math.round(plain),
      "fresh key (req/s)": Math.round(fresh),
      "replay (req/s)": Math.round(replay),
      "fresh key vs no key": Number((fresh / plain).toFixed(2)),
      "replay vs no key": Number((replay / plain).toFixed(2)),
      "create (POST /v1/api-keys), no key (req/s)": Math.round(createPlain),
      "create, fresh key (req/s)": Math.round(createKeyed),
      "create: fresh key vs no key": Number((createKeyed / createPlain).toFixed(2)),
    }),
  );
  await closeDb();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
