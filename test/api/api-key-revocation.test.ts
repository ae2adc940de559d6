import { afterAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { accountIdForApiKey, createApiKey, revokeApiKey } from "@/lib/domain/identity/api-keys";
import { ApiKeyCache, memoryFeed, postgresFeed, redisFeed, LISTENER_APP_NAME } from "@/lib/domain/identity/key-cache";
import { hashApiKey } from "@/lib/domain/identity/api-key-secret";
import { openPostgres } from "@/lib/foundation/db/open-postgres";
import { getDb, type DbHandle } from "@/lib/foundation/db/client";
import { apiKeys } from "@/lib/foundation/db/schema";
import { testAccount } from "../http";

// Verified API keys are cached per process (lib/domain/identity/key-cache.ts). Two
// "instances" here are two database connections and two caches, each with its
// own subscription to the real revocation feed (PostgreSQL LISTEN/NOTIFY, Redis
// pub/sub). A key revoked through one is refused by the other on the very next
// lookup, with no wait in between.
const PG_URL = process.env.DATABASE_URL;
const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const opened: DbHandle[] = [];
const caches: ApiKeyCache[] = [];

afterAll(async () => {
  await Promise.all(caches.map((c) => c.stop()));
  await Promise.all(opened.map((h) => h.close()));
});

async function live(cache: ApiKeyCache) {
  caches.push(cache);
  await cache.start();
  const end = Date.now() + 10_000;
  while (!cache.isLive) {
    if (Date.now() > end) throw new Error(`${cache.feed.kind} feed never went live`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return cache;
}

/** Another "instance": its own connection and cache. `cold`: its feed not started (it has not seen a key yet). */
async function instance(feed: () => ApiKeyCache["feed"], opts: { cold?: boolean } = {}) {
  let db = await getDb();
  if (PG_URL) {
    const handle = await openPostgres(PG_URL);
    opened.push(handle);
    db = handle.db;
  }
  const cache = new ApiKeyCache(feed());
  if (opts.cold) {
    caches.push(cache);
    return { db, cache };
  }
  return { db, cache: await live(cache) };
}

async function revokedEverywhere(feed: () => ApiKeyCache["feed"], opts: { coldRevoker?: boolean } = {}) {
  const { account } = await testAccount();
  const a = await instance(feed, { cold: opts.coldRevoker });
  const b = await instance(feed);
  const created = await createApiKey(a.db, account.id, "ci");
  expect(await accountIdForApiKey(b.db, created.key, b.cache)).toBe(account.id);
  expect(b.cache.size).toBe(1);

  // B really serves from its cache: a revocation written behind the feed's back is not seen...
  await a.db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, created.id));
  expect(await accountIdForApiKey(b.db, created.key, b.cache)).toBe(account.id);
  await a.db.update(apiKeys).set({ revokedAt: null }).where(eq(apiKeys.id, created.id));

  // ...but one made through the API reaches B before A has even answered.
  await revokeApiKey(a.db, account.id, created.id, a.cache);
  expect(await accountIdForApiKey(b.db, created.key, b.cache)).toBeNull();
  expect(await accountIdForApiKey(a.db, created.key, a.cache)).toBeNull();
  expect(b.cache.size).toBe(0);
}

describe.skipIf(!PG_URL)("API key cache on PostgreSQL (LISTEN/NOTIFY)", () => {
  it("a key revoked through one instance is refused on the very next request by another", async () => {
    await revokedEverywhere(() => postgresFeed(PG_URL!));
  });

  it("also when the revoking instance has never seen a key (its feed starts with the revocation)", async () => {
    await revokedEverywhere(() => postgresFeed(PG_URL!), { coldRevoker: true });
  });

  it("after the listening connection drops, the cache is bypassed, then emptied and used again", async () => {
    const { account } = await testAccount();
    const { db, cache } = await instance(() => postgresFeed(PG_URL!));
    const { key } = await createApiKey(db, account.id, "ci");
    await accountIdForApiKey(db, key, cache);
    expect(cache.size).toBe(1);
    await db.execute(sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = ${LISTENER_APP_NAME} and datname = current_database()`);
    const end = Date.now() + 5_000;
    while (cache.isLive && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
    expect(cache.isLive).toBe(false);
    expect(cache.get(hashApiKey(key))).toBeUndefined();
    await live(cache);
    expect(cache.size).toBe(0);
    expect(await accountIdForApiKey(db, key, cache)).toBe(account.id);
    expect(cache.size).toBe(1);
  });
});

describe("API key cache with Redis pub/sub", () => {
  it("a key revoked through one instance is refused on the very next request by another", async () => {
    await revokedEverywhere(() => redisFeed(REDIS_URL));
  });

  it("also when the revoking instance has never seen a key (its feed starts with the revocation)", async () => {
    await revokedEverywhere(() => redisFeed(REDIS_URL), { coldRevoker: true });
  });
});

describe("API key cache, in one process (PGlite)", () => {
  it("never caches a miss: a key unknown a moment ago works as soon as it exists", async () => {
    const { account } = await testAccount();
    const db = await getDb();
    const cache = await live(new ApiKeyCache(memoryFeed()));
    expect(await accountIdForApiKey(db, "psk_live_not-a-key", cache)).toBeNull();
    expect(cache.size).toBe(0);
    const { key, id } = await createApiKey(db, account.id, "ci");
    expect(await accountIdForApiKey(db, key, cache)).toBe(account.id);
    await revokeApiKey(db, account.id, id, cache);
    expect(await accountIdForApiKey(db, key, cache)).toBeNull();
  });

  it("a lookup that raced a revocation is not cached", async () => {
    const cache = await live(new ApiKeyCache(memoryFeed()));
    const ticket = cache.ticket();
    cache.forget("some-other-hash"); // a revocation message arrives while the query runs
    cache.remember("h", { keyId: "key_1", accountId: "acc_1", createdBy: null, lastUsedAt: Date.now() }, ticket);
    expect(cache.get("h")).toBeUndefined();
  });

  it("entries expire after the backstop lifetime", async () => {
    const cache = await live(new ApiKeyCache(memoryFeed(), 50));
    cache.remember("h", { keyId: "key_1", accountId: "acc_1", createdBy: null, lastUsedAt: Date.now() }, cache.ticket());
    expect(cache.get("h")?.accountId).toBe("acc_1");
    await new Promise((r) => setTimeout(r, 80));
    expect(cache.get("h")).toBeUndefined();
  });
});
