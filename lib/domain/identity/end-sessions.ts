import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { accounts, loginSessions } from "@/lib/foundation/db/schema";
import { processKeyCache, REVOKED_CHANNEL, SESSIONS_ENDED_PREFIX } from "@/lib/domain/identity/key-cache";
import { forgetAccount } from "./principal-cache";

/**
 * Ends every session of an account (access tokens and studio cookies), the way a
 * revoked API key ends: tokens carry the credentials version they were issued
 * under, the wrapper compares it with the account row, and the row's per-process
 * cache is dropped everywhere before the change is answered (the revocation feed
 * of lib/domain/identity/key-cache.ts carries `account:<id>`).
 *
 * Call inside the transaction that changes the password; call
 * `announceSessionsEnded` after it commits. Returns the new version.
 */
export async function bumpCredentialsVersion(tx: Db, accountId: string): Promise<number> {
  const [row] = await tx
    .update(accounts)
    .set({ credentialsVersion: sql`${accounts.credentialsVersion} + 1` })
    .where(eq(accounts.id, accountId))
    .returning({ v: accounts.credentialsVersion });
  // Every token and cookie of these sessions is refused from now on (old version): the
  // sessions end with them, so "Where you are signed in" no longer lists them.
  await tx
    .update(loginSessions)
    .set({ endedAt: new Date() })
    .where(and(eq(loginSessions.userId, accountId), isNull(loginSessions.endedAt)));
  // PostgreSQL delivers it at commit: other processes drop the cached row then.
  await tx.execute(sql`select pg_notify(${REVOKED_CHANNEL}, ${SESSIONS_ENDED_PREFIX + accountId})`);
  return row!.v;
}

/** After the commit: drop the row here and wait until every listening process has (as revokeApiKey does). */
export async function announceSessionsEnded(accountId: string): Promise<void> {
  forgetAccount(accountId);
  await processKeyCache()
    .revoked(SESSIONS_ENDED_PREFIX + accountId)
    .catch((err: Error) => console.warn(`[auth] could not publish the end of ${accountId}'s sessions: ${err.message}`));
}
