import crypto from "node:crypto";
import type { Db } from "@/lib/foundation/db/types";
import { findAccountById } from "@/lib/domain/identity/find-account";
import { normalizeEmail, type AccountRow } from "@/lib/domain/identity/public-account";
import { verifyCredentials } from "@/lib/domain/identity/verify-credentials";
import { assertLoginAllowed, recordLoginFailure } from "@/lib/domain/identity/login-throttle";

export type BasicCredentials = { email: string; password: string };

/**
 * `Authorization: Basic base64(email:password)` (RFC 7617: UTF-8, the password
 * may contain ':' but the user id may not). Null when the header is not a
 * well-formed Basic credential.
 */
export function parseBasicAuthorization(header: string): BasicCredentials | null {
  const m = /^Basic\s+([A-Za-z0-9+/]+={0,2})\s*$/i.exec(header.trim());
  if (!m) return null;
  const decoded = Buffer.from(m[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon <= 0) return null;
  return { email: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/**
 * Successful verifications are remembered briefly, because argon2id costs tens
 * of milliseconds and a Basic client sends the password with every request.
 * - The key is an HMAC of the credentials under a per-process random key: no
 *   password (or plain hash of one) is kept in memory.
 * - An entry also records the password hash it was verified against, and every
 *   hit re-reads the account (needed for the request anyway): a changed password
 *   invalidates the entry on the next request, on every instance.
 * - Failures are never cached: each one costs the full hash and counts against
 *   the per-email login throttle; while an email is locked, even cached
 *   credentials get the 429 (the lock means someone is guessing that password).
 */
const TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;
type Entry = { accountId: string; passwordHash: string; expiresAt: number };
// On globalThis so every route bundle of the process shares one cache.
const holder = globalThis as unknown as { __coreBasicCache?: { key: Buffer; entries: Map<string, Entry> } };
function cache() {
  holder.__coreBasicCache ??= { key: crypto.randomBytes(32), entries: new Map() };
  return holder.__coreBasicCache;
}

function cacheKey(c: BasicCredentials): string {
  return crypto.createHmac("sha256", cache().key).update(normalizeEmail(c.email)).update("\0").update(c.password).digest("base64url");
}

/** The account for these credentials, or null (the failure is recorded). Throws the throttle's 429 when the email is locked. */
export async function verifyBasicCredentials(db: Db, c: BasicCredentials): Promise<AccountRow | null> {
  await assertLoginAllowed(c.email);
  const { entries } = cache();
  const key = cacheKey(c);
  const hit = entries.get(key);
  if (hit && hit.expiresAt > Date.now()) {
    const account = await findAccountById(db, hit.accountId);
    if (account && account.passwordHash === hit.passwordHash) return account;
  }
  if (hit) entries.delete(key);

  const account = await verifyCredentials(db, c.email, c.password);
  if (!account) {
    await recordLoginFailure(c.email);
    return null;
  }
  if (entries.size >= MAX_ENTRIES) {
    // Maps iterate in insertion order: drop the oldest entry.
    const oldest = entries.keys().next().value;
    if (oldest !== undefined) entries.delete(oldest);
  }
  entries.set(key, { accountId: account.id, passwordHash: account.passwordHash, expiresAt: Date.now() + TTL_MS });
  return account;
}

/** For tests: forget every cached verification. */
export function clearBasicCredentialCache(): void {
  cache().entries.clear();
}
