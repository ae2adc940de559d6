import { and, count, desc, eq, isNull } from "drizzle-orm";
import type { Db } from "@/lib/db/types";
import { apiKeys } from "@/lib/db/schema";
import { newId } from "@/lib/ids";
import { notFound } from "@/lib/http/api-error";
import { generateApiKey, hashApiKey } from "./api-key-secret";

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
export async function createApiKey(db: Db, accountId: string, name: string) {
  const key = generateApiKey();
  const [row] = await db
    .insert(apiKeys)
    .values({ id: newId("key"), accountId, name, prefix: key.slice(0, 13), keyHash: hashApiKey(key) })
    .returning();
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

/** Revocation is checked on every request (no cache), so it takes effect on the next one. */
export async function revokeApiKey(db: Db, accountId: string, id: string): Promise<void> {
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.id, id), eq(apiKeys.accountId, accountId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  if (!row) throw notFound("API key");
}

/** The owner of a live key, or null. Records last use at most once a minute to keep reads cheap. */
export async function accountIdForApiKey(db: Db, key: string): Promise<string | null> {
  const [row] = await db
    .select({ id: apiKeys.id, accountId: apiKeys.accountId, lastUsedAt: apiKeys.lastUsedAt })
    .from(apiKeys)
    .where(and(eq(apiKeys.keyHash, hashApiKey(key)), isNull(apiKeys.revokedAt)));
  if (!row) return null;
  if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > 60_000) {
    await db.update(apiKeys).set({ lastUsedAt: new Date() }).where(eq(apiKeys.id, row.id));
  }
  return row.accountId;
}
