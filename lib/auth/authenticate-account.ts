import type { Db } from "@/lib/db/types";
import { ApiError, unauthorized } from "@/lib/http/api-error";
import { findAccountById } from "@/lib/accounts/find-account";
import type { AccountRow } from "@/lib/accounts/public-account";
import { accountIdForApiKey } from "@/lib/api-keys/api-keys";
import { looksLikeApiKey } from "@/lib/api-keys/api-key-secret";
import { verifyAccessToken } from "./access-token";
import { cachedAccount } from "./principal-cache";
import { hasSessionCookie, sessionFromCookie } from "./session-cookie";

export type AccountPrincipal = { account: AccountRow; via: "access_token" | "api_key" | "session" };

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Who is calling: `Authorization: Bearer <access token | API key>` for third
 * parties, or the studio's session cookie for our own pages. X-API-Key is never
 * client authentication (contract section 5).
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
      const accountId = await accountIdForApiKey(db, token);
      const account = accountId ? await cachedAccount(accountId, () => findAccountById(db, accountId)) : undefined;
      if (!account) throw unauthorized("The API key is invalid or revoked.");
      return { account, via: "api_key" };
    }
    const claims = await verifyAccessToken(token);
    const account = claims ? await currentAccount(db, claims) : undefined;
    if (!account) throw unauthorized("The access token is invalid or expired.");
    return { account, via: "access_token" };
  }
  if (req.headers.has("x-api-key")) {
    throw unauthorized("X-API-Key is not accepted. Send the key as Authorization: Bearer <key>.");
  }
  if (hasSessionCookie(req)) {
    const claims = await sessionFromCookie(req);
    const account = claims ? await currentAccount(db, claims) : undefined;
    if (!account) throw unauthorized("The session has ended. Sign in again.");
    assertSameOrigin(req);
    return { account, via: "session" };
  }
  throw unauthorized();
}

/** The account a token or cookie names, unless its password was reset or changed since the token was issued. */
async function currentAccount(db: Db, claims: { accountId: string; credentialsVersion: number }): Promise<AccountRow | undefined> {
  const account = await cachedAccount(claims.accountId, () => findAccountById(db, claims.accountId));
  return account && account.credentialsVersion === claims.credentialsVersion ? account : undefined;
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
