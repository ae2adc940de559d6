import type { Db } from "@/lib/foundation/db/types";
import type { AccountRow } from "@/lib/domain/identity/public-account";
import { authenticateAccount, principalForLogin, type AccountPrincipal } from "@/lib/services/sign-in/authenticate-account";
import { personName } from "@/lib/domain/identity/person-name";
import { assertStudioTwoFactor } from "@/lib/services/sign-in/two-factor-policy";
import type { Role } from "@/lib/domain/identity/roles";
import { hasSessionCookie } from "@/lib/domain/identity/session-cookie";
import { parseBasicAuthorization, verifyBasicCredentials } from "@/lib/services/sign-in/basic-auth";
import { accountForUnauthToken } from "@/lib/services/sign-in/unauth-token";
import { ApiError } from "../foundation/http/api-error";
import { clientIp } from "../foundation/http/client-ip";
import { createWrapper, type Handler } from "./create-handler";
import { consumeRateLimit, memberRateLimitBudget, memberRateLimitKey } from "./rate-limit";
import { routeMeta, withRouteMeta } from "./route-meta";

/**
 * A studio member (HTTP Basic with their own email and password, Bearer tokens, or the
 * studio session), with their role in the studio acted for: the core routes check it
 * like every other route (a viewer reads, a photographer changes, `role` asks more).
 */
export type AdminPrincipal = AccountPrincipal & { publicOnly: false };
/** X-Service-Unauth-Token: reads the account's public products, nothing else. */
export type PublicPrincipal = { account: AccountRow; via: "unauth_token"; publicOnly: true; role: Role; user: null; apiKeyId: null };
export type CorePrincipal = AdminPrincipal | PublicPrincipal;

export const UNAUTH_TOKEN_HEADER = "x-service-unauth-token";
const REALM = "Print Studio API";

/**
 * The 401 challenge. Browsers answer a Basic challenge with a password dialog,
 * so the studio (session cookie) and storefront code (unauth token) are only
 * offered Bearer; API clients are offered both schemes.
 */
function challenge(req: Request): Record<string, string> {
  const fromBrowser = hasSessionCookie(req) || req.headers.has(UNAUTH_TOKEN_HEADER);
  return { "WWW-Authenticate": fromBrowser ? 'Bearer realm="v1"' : `Basic realm="${REALM}", charset="UTF-8", Bearer realm="v1"` };
}

const unauthorized = (req: Request, message: string, code = "UNAUTHORIZED") => new ApiError(401, code, message, undefined, undefined, challenge(req));

async function authenticateAdmin(req: Request, db: Db): Promise<AdminPrincipal> {
  const authorization = req.headers.get("authorization")?.trim();
  const scheme = authorization?.split(/\s+/)[0]?.toLowerCase();
  if (scheme === "basic") {
    const credentials = parseBasicAuthorization(authorization!);
    if (!credentials) throw unauthorized(req, "Malformed Basic credentials: send Authorization: Basic base64(email:password).");
    const login = await verifyBasicCredentials(db, credentials);
    if (!login) throw unauthorized(req, "The email or password is wrong.", "INVALID_CREDENTIALS");
    return { ...(await principalForLogin(db, login, req)), publicOnly: false };
  }
  if (authorization && scheme !== "bearer") throw unauthorized(req, "Use Authorization: Basic <base64 email:password> or Bearer <access token or API key>.");
  if (!authorization && !hasSessionCookie(req) && !req.headers.has("x-api-key")) {
    throw unauthorized(req, "Authentication required: HTTP Basic with the account's email and password, or Authorization: Bearer <access token or API key>.");
  }
  try {
    return { ...(await authenticateAccount(req, db)), publicOnly: false };
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) throw unauthorized(req, err.message, err.code);
    throw err;
  }
}

/**
 * Core API endpoints that need full access. The unauth token is refused with
 * 403 UNAUTH_TOKEN_SCOPE whether or not it is valid (its scope is the point),
 * after spending the caller's IP budget so the refusal is not a free path.
 * When an Authorization header is present it decides and the unauth header is ignored.
 */
export const withCore = createWrapper<AdminPrincipal>({
  kind: "core",
  authenticate: async (req, db) => {
    if (!req.headers.has("authorization") && req.headers.has(UNAUTH_TOKEN_HEADER)) {
      await consumeRateLimit(`ip:${clientIp(req)}`);
      throw new ApiError(
        403,
        "UNAUTH_TOKEN_SCOPE",
        "The unauth token only reads public products (GET /v1/products, GET /v1/products/{id}). Use HTTP Basic or a Bearer token here.",
      );
    }
    return authenticateAdmin(req, db);
  },
  rateLimitKey: memberRateLimitKey,
  rateLimitBudget: memberRateLimitBudget,
  accountIdOf: (p) => p.account.id,
  idempotencyScope: (p) => p.account.id,
  roleOf: (p) => p.role,
  assertAllowed: (p, spec) => assertStudioTwoFactor(p, spec.allowWithoutTwoFactor === true),
  actorOf,
});

/** Who acts, for the ledger and the audit log (as withAccount names them). */
function actorOf(p: CorePrincipal) {
  if (p.publicOnly) return undefined;
  return p.apiKeyId ? { type: "api_key" as const, apiKeyId: p.apiKeyId, name: "API key" } : p.user ? { type: "member" as const, userId: p.user.id, name: personName(p.user) } : undefined;
}

const withCorePublicInner = createWrapper<CorePrincipal>({
  kind: "core-public",
  authenticate: async (req, db) => {
    const token = req.headers.get(UNAUTH_TOKEN_HEADER);
    if (!req.headers.has("authorization") && token !== null) {
      const account = await accountForUnauthToken(db, token.trim());
      if (!account) throw unauthorized(req, "The unauth token is invalid or was rotated: copy the current one from the studio's Settings page.");
      // Reads public products only (every handler checks publicOnly): the least role.
      return { account, via: "unauth_token", publicOnly: true, role: "viewer", user: null, apiKeyId: null };
    }
    return authenticateAdmin(req, db);
  },
  // Storefront traffic comes from many visitors: each gets its own budget, and
  // none of it spends the account's own (server-side) budget.
  rateLimitKey: (p, req) => (p.publicOnly ? `unauth:${p.account.id}:${clientIp(req)}` : memberRateLimitKey(p)),
  rateLimitBudget: (p) => (p.publicOnly ? "api" : memberRateLimitBudget(p)),
  accountIdOf: (p) => p.account.id,
  idempotencyScope: (p) => (p.publicOnly ? null : p.account.id),
  roleOf: (p) => p.role,
  assertAllowed: (p, spec) => {
    if (!p.publicOnly) assertStudioTwoFactor(p, spec.allowWithoutTwoFactor === true);
  },
  actorOf,
});

/** Read endpoints that also accept the unauth token (principal.publicOnly), callable from any web origin. */
export const withCorePublic: typeof withCorePublicInner = (schemas, run) => {
  const handler = withCorePublicInner(schemas, run);
  const withHeaders: Handler = async (req, ctx) => withCors(await handler(req, ctx));
  return withRouteMeta(withHeaders, routeMeta(handler)!);
};

const CORS_HEADERS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers": "X-Request-Id, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, RateLimit-Policy, Retry-After",
};

function withCors(res: Response): Response {
  for (const [k, v] of Object.entries(CORS_HEADERS)) res.headers.set(k, v);
  return res;
}

/**
 * OPTIONS for the public reads: storefront code on another origin sends the
 * unauth token header, which needs a CORS preflight. Only that header and GET
 * are allowed; `*` is safe because no cookies are involved (Basic and Bearer
 * are for servers and are not offered to browsers).
 */
export const corsPreflight: Handler = async () =>
  new Response(null, {
    status: 204,
    headers: {
      ...CORS_HEADERS,
      "Access-Control-Allow-Methods": "GET",
      "Access-Control-Allow-Headers": "X-Service-Unauth-Token, X-Request-Id",
      "Access-Control-Max-Age": "86400",
    },
  });
