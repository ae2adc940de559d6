import type { Db } from "@/lib/db/types";
import { ApiError, unauthorized } from "@/lib/http/api-error";
import { findAccountById } from "@/lib/accounts/find-account";
import type { AccountRow } from "@/lib/accounts/public-account";
import { accountIdForApiKey } from "@/lib/api-keys/api-keys";
import { looksLikeApiKey } from "@/lib/api-keys/api-key-secret";
import { verifyAccessToken } from "./access-token";
import { cachedAccount } from "./principal-cache";
import { accountIdFromSessionCookie, hasSessionCookie } from "./session-cookie";

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
    const isKey = looksLikeApiKey(token);
    const accountId = isKey ? await accountIdForApiKey(db, token) : await verifyAccessToken(token);
    const account = accountId ? await cachedAccount(accountId, () => findAccountById(db, accountId)) : undefined;
    if (!account) throw unauthorized(isKey ? "The API key is invalid or revoked." : "The access token is invalid or expired.");
    return { account, via: isKey ? "api_key" : "access_token" };
  }
  if (req.headers.has("x-api-key")) {
    throw unauthorized("X-API-Key is not accepted. Send the key as Authorization: Bearer <key>.");
  }
  if (hasSessionCookie(req)) {
    const accountId = await accountIdFromSessionCookie(req);
    const account = accountId ? await cachedAccount(accountId, () => findAccountById(db, accountId)) : undefined;
    if (!account) throw unauthorized("The session has ended. Sign in again.");
    assertSameOrigin(req);
    return { account, via: "session" };
  }
  throw unauthorized();
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
