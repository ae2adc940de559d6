import { and, count, desc, eq, isNull, sql } from "drizzle-orm";
import { recordAudit } from "@/lib/domain/audit/record-audit";
import type { Db } from "@/lib/foundation/db/types";
import { apiKeys } from "@/lib/foundation/db/schema";
import { newId } from "@/lib/foundation/ids";
import { notFound } from "@/lib/foundation/http/api-error";
import { generateApiKey, hashApiKey } from "./api-key-secret";
import { processKeyCache, REVOKED_CHANNEL, type ApiKeyCache } from "./key-cache";

type Row = typeof apiKeys.$inferSelect;

export function toPublicApiKey(row: Row) {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
  };
}

/** Creates a key; the plain key is returned here only, and stored as a hash. */
export async function createApiKey(db: Db, accountId: string, name: string, createdBy: string | null = null) {
  const key = generateApiKey();
  const [row] = await db
    .insert(apiKeys)
    .values({ id: newId("key"), accountId, name, prefix: key.slice(0, 13), keyHash: hashApiKey(key), createdBy })
    .returning();
  await recordAudit(db, { accountId, action: "api_key.created", target: row!.id, data: { name, prefix: row!.prefix } });
  return { ...toPublicApiKey(row!), key };
}

export async function listApiKeys(db: Db, accountId: string, page: { limit: number; offset: number }) {
  const where = and(eq(apiKeys.accountId, accountId), isNull(apiKeys.revokedAt));
  const [rows, [total]] = await Promise.all([
    db.select().from(apiKeys).where(where).orderBy(desc(apiKeys.createdAt), desc(apiKeys.id)).limit(page.limit).offset(page.offset),
    db.select({ n: count() }).from(apiKeys).where(where),
  ]);
  return { items: rows.map(toPublicApiKey), total: total?.n ?? 0 };
}

/**
 * Revocation holds on the next request everywhere: the NOTIFY goes out with the
 * commit (PostgreSQL), this process forgets the key at once, and the Redis feed
 * (when configured) publishes before we answer (lib/domain/identity/key-cache.ts).
 */
export async function revokeApiKey(db: Db, accountId: string, id: string, cache: ApiKeyCache = processKeyCache()): Promise<void> {
  const row = await db.transaction(async (tx) => {
    const [revoked] = await tx
      .update(apiKeys)
      .set({ revokedAt: new Date() })
      .where(and(eq(apiKeys.id, id), eq(apiKeys.accountId, accountId), isNull(apiKeys.revokedAt)))
      .returning({ id: apiKeys.id, keyHash: apiKeys.keyHash });
    if (revoked) await tx.execute(sql`select pg_notify(${REVOKED_CHANNEL}, ${revoked.keyHash})`);
    if (revoked) await recordAudit(tx, { accountId, action: "api_key.revoked", target: revoked.id });
    return revoked;
  });
  if (!row) throw notFound("API key");
  await cache.revoked(row.keyHash).catch((err: Error) => console.warn(`[api-keys] could not publish the revocation of ${row.id}: ${err.message}`));
}

/** The owner of a live key, or null (see liveApiKey). */
export async function accountIdForApiKey(db: Db, key: string, cache: ApiKeyCache = processKeyCache()): Promise<string | null> {
  return (await liveApiKey(db, key, cache))?.accountId ?? null;
}

/**
 * A live key's id and owner, or null. Verified keys come from the process cache
 * (misses are never cached); last use is recorded at most once a minute.
 */
export async function liveApiKey(db: Db, key: string, cache: ApiKeyCache = processKeyCache()): Promise<{ keyId: string; accountId: string; createdBy: string | null } | null> {
  const keyHash = cache.hashOf(key);
  const hit = cache.get(keyHash);
  if (hit) {
    if (Date.now() - hit.lastUsedAt > 60_000) {
      hit.lastUsedAt = Date.now();
      await db.update(apiKeys).set({ lastUsedAt: new Date() }).where(eq(apiKeys.id, hit.keyId));
    }
    return { keyId: hit.keyId, accountId: hit.accountId, createdBy: hit.createdBy };
  }
  const ticket = cache.ticket();
  const [row] = await db
    .select({ id: apiKeys.id, accountId: apiKeys.accountId, createdBy: apiKeys.createdBy, lastUsedAt: apiKeys.lastUsedAt })
    .from(apiKeys)
    .where(and(eq(apiKeys.keyHash, keyHash), isNull(apiKeys.revokedAt)));
  if (!row) return null;
  let lastUsedAt = row.lastUsedAt?.getTime() ?? 0;
  if (Date.now() - lastUsedAt > 60_000) {
    lastUsedAt = Date.now();
    await db.update(apiKeys).set({ lastUsedAt: new Date() }).where(eq(apiKeys.id, row.id));
  }
  cache.remember(keyHash, { keyId: row.id, accountId: row.accountId, createdBy: row.createdBy, lastUsedAt }, ticket, key);
  return { keyId: row.id, accountId: row.accountId, createdBy: row.createdBy };
}
