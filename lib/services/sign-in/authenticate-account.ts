import type { Db } from "@/lib/foundation/db/types";
import { ApiError, unauthorized } from "@/lib/foundation/http/api-error";
import { findAccountById } from "@/lib/domain/identity/find-account";
import type { AccountRow } from "@/lib/domain/identity/public-account";
import { liveApiKey } from "@/lib/domain/identity/api-keys";
import { looksLikeApiKey } from "@/lib/domain/identity/api-key-secret";
import { verifyAccessToken } from "@/lib/domain/identity/access-token";
import { cachedAccount } from "@/lib/domain/identity/principal-cache";
import { membershipFor, membershipOrOwnStudio } from "@/lib/domain/identity/membership";
import { loginSessionActive } from "@/lib/domain/identity/login-sessions";
import type { Role } from "@/lib/domain/identity/roles";
import { hasSessionCookie, sessionFromCookie } from "@/lib/domain/identity/session-cookie";
import { STUDIO_COOKIE, STUDIO_HEADER, studioFromCookie } from "@/lib/domain/identity/studio-choice";

export type AccountPrincipal = {
  /** The studio the request acts for: every query is scoped by its id. */
  account: AccountRow;
  /** The person signed in (their login); null for an API key, which is the studio's. */
  user: AccountRow | null;
  /** The caller's role in the studio; an API key acts with its maker's role (lib/services/sign-in/authenticate-account.ts keyRole). */
  role: Role;
  membershipId: string | null;
  apiKeyId: string | null;
  /** The login session the token or cookie belongs to (null: an API key, or a token from before sessions were kept). */
  sessionId: string | null;
  via: "access_token" | "api_key" | "session" | "basic";
};

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Who is calling: `Authorization: Bearer <access token | API key>` for third
 * parties, or the studio's session cookie for our own pages. X-API-Key is never
 * client authentication (contract section 5). A person acts for one studio at a
 * time: the one named by X-Studio-Id (or, in the browser, the studio switcher's
 * cookie), else their own.
 */
export async function authenticateAccount(req: Request, db: Db): Promise<AccountPrincipal> {
  const authorization = req.headers.get("authorization");
  if (authorization) {
    const [scheme, token, extra] = authorization.trim().split(/\s+/);
    if (scheme?.toLowerCase() !== "bearer" || !token || extra) {
      throw unauthorized("Use Authorization: Bearer <access token or API key>.");
    }
    if (looksLikeApiKey(token)) {
      // API keys are the studio's, not a session: a password change leaves them working.
      const key = await liveApiKey(db, token);
      const account = key ? await cachedAccount(key.accountId, () => findAccountById(db, key.accountId)) : undefined;
      if (!key || !account) throw unauthorized("The API key is invalid or revoked.");
      return { account, user: null, role: await keyRole(db, key), membershipId: null, apiKeyId: key.keyId, sessionId: null, via: "api_key" };
    }
    const claims = await verifyAccessToken(token);
    const user = claims ? await currentLogin(db, claims) : undefined;
    if (!user) throw unauthorized("The access token is invalid or expired.");
    return actingMember(db, user, req.headers.get(STUDIO_HEADER) ?? undefined, "access_token", true, claims!.sid ?? null);
  }
  if (req.headers.has("x-api-key")) {
    throw unauthorized("X-API-Key is not accepted. Send the key as Authorization: Bearer <key>.");
  }
  if (hasSessionCookie(req)) {
    const claims = await sessionFromCookie(req);
    const user = claims ? await currentLogin(db, claims) : undefined;
    if (!user) throw unauthorized("The session has ended. Sign in again.");
    assertSameOrigin(req);
    const header = req.headers.get(STUDIO_HEADER);
    return actingMember(db, user, header ?? studioFromCookie(req.headers.get("cookie")), "session", header !== null, claims!.sid ?? null);
  }
  throw unauthorized();
}

/**
 * A login proven another way (HTTP Basic on the core API) acts like its tokens do:
 * for the studio X-Studio-Id names, else its own, with its role there.
 */
export async function principalForLogin(db: Db, user: AccountRow, req: Request): Promise<AccountPrincipal> {
  const header = req.headers.get(STUDIO_HEADER);
  return actingMember(db, user, header ?? undefined, "basic", header !== null, null);
}

/**
 * The studio a login acts for. A studio named in the header must be one of theirs
 * (403 NOT_A_MEMBER); the switcher's cookie falls back to their own studio when
 * they have left the one it names.
 */
async function actingMember(db: Db, user: AccountRow, studioId: string | undefined, via: "access_token" | "session" | "basic", explicit: boolean, sessionId: string | null): Promise<AccountPrincipal> {
  let membership = studioId ? await membershipFor(db, user.id, studioId) : undefined;
  if (!membership && studioId && explicit) {
    throw new ApiError(403, "NOT_A_MEMBER", `You are not a member of the studio ${studioId} (${STUDIO_HEADER}).`, { field: STUDIO_HEADER });
  }
  membership ??= await membershipOrOwnStudio(db, user.id);
  const account =
    membership.accountId === user.id ? user : await cachedAccount(membership.accountId, () => findAccountById(db, membership.accountId));
  if (!account) throw new ApiError(403, "NOT_A_MEMBER", "The studio no longer exists.");
  return { account, user, role: membership.role, membershipId: membership.id, apiKeyId: null, sessionId, via };
}

/**
 * A key acts with its maker's current role in the studio (a demoted maker's keys
 * are demoted with them), a key whose maker has left stays
 * an admin's (only admins and owners make keys), so the studio's integrations keep
 * working until someone revokes it.
 */
async function keyRole(db: Db, key: { accountId: string; createdBy: string | null }): Promise<Role> {
  if (!key.createdBy) return "admin";
  return (await membershipFor(db, key.createdBy, key.accountId))?.role ?? "admin";
}

/**
 * The login a token or cookie names, unless its password was reset or changed since
 * the token was issued, or the person ended that session (GET /v1/account/sessions).
 */
async function currentLogin(db: Db, claims: { accountId: string; credentialsVersion: number; sid?: string }): Promise<AccountRow | undefined> {
  const account = await cachedAccount(claims.accountId, () => findAccountById(db, claims.accountId));
  if (!account || account.credentialsVersion !== claims.credentialsVersion) return undefined;
  if (claims.sid && !(await loginSessionActive(db, account.id, claims.sid))) return undefined;
  return account;
}

/** Cookie-authenticated writes must come from our own pages (CSRF). */
function assertSameOrigin(req: Request): void {
  if (SAFE_METHODS.has(req.method)) return;
  const site = req.headers.get("sec-fetch-site");
  if (site === "same-origin") return;
  const origin = req.headers.get("origin");
  const host = req.headers.get("x-forwarded-host") ?? req.headers.get("host");
  if (origin && host && new URL(origin).host === host) return;
  throw new ApiError(403, "CROSS_SITE_REQUEST", "Cookie-authenticated writes must come from the studio itself; API clients send a Bearer token.");
}

export { STUDIO_COOKIE, STUDIO_HEADER };
