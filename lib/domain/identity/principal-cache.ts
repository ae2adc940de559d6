import type { AccountRow } from "@/lib/domain/identity/public-account";

/**
 * Two small per-process caches on the authentication path, which every /v1
 * request walks (bench/README.md: without them the account lookup was most of
 * the wrapper's cost):
 *
 * - verified access tokens -> account id, until the token expires. A signed token
 *   never changes meaning, so this only skips re-checking the signature.
 * - account rows by id, for ACCOUNT_TTL_MS. A plan change made by this process is
 *   seen at once (forgetAccount); one made elsewhere (another instance, the CLI)
 *   within that time. Ended sessions (a password reset or change moves the
 *   credentials version) are broadcast like a revoked API key, so every process
 *   drops the row before the change is answered (lib/domain/identity/end-sessions.ts). Verified API keys have their own cache
 *   (lib/domain/identity/key-cache.ts), invalidated everywhere by a broadcast on revocation.
 */
const ACCOUNT_TTL_MS = 2_000;
const MAX_ENTRIES = 10_000;

type TokenClaims = { accountId: string; credentialsVersion: number; sid?: string };
type MembershipRow = { id: string; accountId: string; userId: string; role: "owner" | "admin" | "photographer" | "viewer" };
type Holder = {
  tokens: Map<string, TokenClaims & { expiresAt: number }>;
  accounts: Map<string, { row: AccountRow; until: number }>;
  /** `<user id> <studio id or "">` -> the membership, for ACCOUNT_TTL_MS; dropped with the user's row. */
  memberships: Map<string, { row: MembershipRow; until: number }>;
  /** Login sessions by id (lib/domain/identity/login-sessions.ts); dropped when one is ended. */
  sessions: Map<string, { row: SessionRow; until: number }>;
};
type SessionRow = { userId: string; active: boolean; lastSeenAt: number };

/** The revocation feed's message that ends one login session (lib/domain/identity/key-cache.ts forwards it to forgetSession). */
export const SESSION_ENDED_PREFIX = "session:";
const g = globalThis as unknown as { __printStudioPrincipalCache?: Holder };
const cache = (g.__printStudioPrincipalCache ??= { tokens: new Map(), accounts: new Map(), memberships: new Map(), sessions: new Map() });
cache.memberships ??= new Map();
cache.sessions ??= new Map();

/** Map insertion order is age: past the cap, the oldest entry goes. */
function remember<V>(map: Map<string, V>, key: string, value: V) {
  map.delete(key);
  map.set(key, value);
  if (map.size > MAX_ENTRIES) map.delete(map.keys().next().value!);
}

export function cachedTokenAccount(token: string): TokenClaims | undefined {
  const hit = cache.tokens.get(token);
  if (!hit) return undefined;
  if (hit.expiresAt > Date.now()) return { accountId: hit.accountId, credentialsVersion: hit.credentialsVersion, sid: hit.sid };
  cache.tokens.delete(token);
  return undefined;
}

export function rememberToken(token: string, claims: TokenClaims, expiresAt: number): void {
  remember(cache.tokens, token, { ...claims, expiresAt });
}

/** The account row, from the cache when fresh, else from `load` (and then cached; misses are not). */
export async function cachedAccount(id: string, load: () => Promise<AccountRow | undefined>): Promise<AccountRow | undefined> {
  const hit = cache.accounts.get(id);
  if (hit && hit.until > Date.now()) return hit.row;
  const row = await load();
  if (row) remember(cache.accounts, id, { row, until: Date.now() + ACCOUNT_TTL_MS });
  else cache.accounts.delete(id);
  return row;
}

/** A login's membership (see lib/domain/identity/membership.ts), cached like account rows; misses are not cached. */
export async function cachedMembership(userId: string, studioId: string, load: () => Promise<MembershipRow | undefined>): Promise<MembershipRow | undefined> {
  const key = `${userId} ${studioId}`;
  const hit = cache.memberships.get(key);
  if (hit && hit.until > Date.now()) return hit.row;
  const row = await load();
  if (row) remember(cache.memberships, key, { row, until: Date.now() + ACCOUNT_TTL_MS });
  else cache.memberships.delete(key);
  return row;
}

/**
 * After changing an account (plan, credentials, name, email) or a person's
 * membership (role, removal), so this process never serves the old row.
 */
export function forgetAccount(id: string): void {
  cache.accounts.delete(id);
  for (const key of cache.memberships.keys()) if (key.startsWith(`${id} `)) cache.memberships.delete(key);
}

/** A login session's state, cached like account rows (the row object is kept, so last-seen throttling sticks). */
export async function cachedSession(sid: string, load: () => Promise<SessionRow | undefined>): Promise<SessionRow | undefined> {
  const hit = cache.sessions.get(sid);
  if (hit && hit.until > Date.now()) return hit.row;
  const row = await load();
  if (!row) {
    cache.sessions.delete(sid);
    return undefined;
  }
  // Keep the last-seen time this process already wrote, so the once-a-minute throttle holds.
  if (hit) row.lastSeenAt = Math.max(row.lastSeenAt, hit.row.lastSeenAt);
  remember(cache.sessions, sid, { row, until: Date.now() + ACCOUNT_TTL_MS });
  return row;
}

export function forgetSession(sid: string): void {
  cache.sessions.delete(sid);
}
