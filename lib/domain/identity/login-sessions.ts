import { and, desc, eq, gt, isNull, ne, sql } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { loginSessions } from "@/lib/foundation/db/schema";
import { newId } from "@/lib/foundation/ids";
import { notFound } from "@/lib/foundation/http/api-error";
import { processKeyCache, REVOKED_CHANNEL } from "@/lib/domain/identity/key-cache";
import { cachedSession, forgetSession, SESSION_ENDED_PREFIX } from "./principal-cache";

const LAST_SEEN_EVERY_MS = 60_000;

/** A new signed-in session; its id goes into the cookie or access token as `sid`. */
export async function startLoginSession(db: Db, input: { userId: string; kind: "studio" | "api"; userAgent?: string | null; ip?: string | null; ttlSeconds: number }): Promise<string> {
  const id = newId("ses");
  await db.insert(loginSessions).values({
    id,
    userId: input.userId,
    kind: input.kind,
    userAgent: input.userAgent?.slice(0, 300) ?? null,
    ip: input.ip ?? null,
    expiresAt: new Date(Date.now() + input.ttlSeconds * 1000),
  });
  return id;
}

/**
 * Whether the session a token names is still on (not ended, not expired), from the
 * per-process cache when fresh; records last use at most once a minute.
 */
export async function loginSessionActive(db: Db, userId: string, sid: string): Promise<boolean> {
  const row = await cachedSession(sid, async () => {
    const [found] = await db
      .select({ userId: loginSessions.userId, endedAt: loginSessions.endedAt, expiresAt: loginSessions.expiresAt, lastSeenAt: loginSessions.lastSeenAt })
      .from(loginSessions)
      .where(eq(loginSessions.id, sid));
    return found && { userId: found.userId, active: !found.endedAt && found.expiresAt.getTime() > Date.now(), lastSeenAt: found.lastSeenAt.getTime() };
  });
  if (!row || row.userId !== userId || !row.active) return false;
  if (Date.now() - row.lastSeenAt > LAST_SEEN_EVERY_MS) {
    row.lastSeenAt = Date.now();
    await db.update(loginSessions).set({ lastSeenAt: new Date() }).where(eq(loginSessions.id, sid));
  }
  return true;
}

function device(userAgent: string | null): string {
  if (!userAgent) return "Unknown device";
  const browser = /Edg\//.test(userAgent) ? "Edge" : /Chrome\//.test(userAgent) ? "Chrome" : /Firefox\//.test(userAgent) ? "Firefox" : /Safari\//.test(userAgent) ? "Safari" : null;
  const os = /Windows/.test(userAgent) ? "Windows" : /Mac OS X/.test(userAgent) ? "macOS" : /Android/.test(userAgent) ? "Android" : /iPhone|iPad/.test(userAgent) ? "iOS" : /Linux/.test(userAgent) ? "Linux" : null;
  if (browser || os) return [browser, os].filter(Boolean).join(" on ");
  return userAgent.split(/[\s/]/)[0] || "Unknown device";
}

/** GET /v1/account/sessions: the person's sessions still on, most recently used first. */
export async function listLoginSessions(db: Db, userId: string, currentSid: string | null) {
  const rows = await db
    .select()
    .from(loginSessions)
    .where(and(eq(loginSessions.userId, userId), isNull(loginSessions.endedAt), gt(loginSessions.expiresAt, new Date())))
    .orderBy(desc(loginSessions.lastSeenAt), desc(loginSessions.id))
    .limit(100);
  return {
    data: rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      device: device(r.userAgent),
      ip: r.ip,
      created_at: r.createdAt.toISOString(),
      last_seen_at: r.lastSeenAt.toISOString(),
      current: r.id === currentSid,
    })),
  };
}

/** Ends sessions (one, or all but `keep`), then waits until every instance has dropped them. */
export async function endLoginSessions(db: Db, userId: string, which: { id: string } | { allBut: string | null }): Promise<number> {
  const ended = await db.transaction(async (tx) => {
    const rows = await tx
      .update(loginSessions)
      .set({ endedAt: new Date() })
      .where(
        and(
          eq(loginSessions.userId, userId),
          isNull(loginSessions.endedAt),
          "id" in which ? eq(loginSessions.id, which.id) : which.allBut ? ne(loginSessions.id, which.allBut) : sql`true`,
        ),
      )
      .returning({ id: loginSessions.id });
    for (const r of rows) await tx.execute(sql`select pg_notify(${REVOKED_CHANNEL}, ${SESSION_ENDED_PREFIX + r.id})`);
    return rows;
  });
  if ("id" in which && ended.length === 0) throw notFound("Session");
  for (const r of ended) {
    forgetSession(r.id);
    await processKeyCache()
      .revoked(SESSION_ENDED_PREFIX + r.id)
      .catch((err: Error) => console.warn(`[auth] could not publish the end of session ${r.id}: ${err.message}`));
  }
  return ended.length;
}
