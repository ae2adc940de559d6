import type { Db } from "@/lib/foundation/db/types";
import { getDb } from "@/lib/foundation/db/client";
import { logger } from "@/lib/foundation/log/logger";
import { ApiError } from "../foundation/http/api-error";
import { clientIp } from "../foundation/http/client-ip";
import { errorResponse } from "./error-response";
import { parseInput, type ParsedInput, type RouteContext, type Schemas } from "./parse-input";
import { consumeRateLimit, rateLimitHeaders, type RateLimitBudget, type RateLimitState } from "./rate-limit";
import { requestIdFor } from "../foundation/http/request-id";
import { runInRequestContext, type RequestActor } from "../foundation/http/request-context";
import { assertRole, defaultRole, type Role } from "@/lib/domain/identity/roles";
import { withRouteMeta, type AuthKind, type RouteSpec } from "./route-meta";
import { prepareIdempotentRequest, runIdempotent } from "@/lib/http/idempotency/run-idempotent";

export type Handler = (req: Request, ctx: RouteContext) => Promise<Response>;

/** How one auth mode identifies a caller, and which rate-limit bucket it spends. */
export type Authenticator<P> = {
  /** How the API description (GET /v1/openapi.json) names this mode's security. */
  kind: AuthKind;
  authenticate: (req: Request, db: Db) => Promise<P>;
  rateLimitKey: (principal: P, req: Request) => string | null;
  /** Which budget the key spends (default `api`): the studio's pages have their own, per person. */
  rateLimitBudget?: (principal: P) => RateLimitBudget;
  /** The account a request acted for, for the request log line. */
  accountIdOf?: (principal: P) => string | undefined;
  /**
   * Whose Idempotency-Key namespace a caller's POSTs use (the account id), or
   * null when keys are not honoured (unauthenticated endpoints).
   */
  idempotencyScope?: (principal: P) => string | null;
  /** The caller's role in the studio, checked against the route's `role` before anything else runs. */
  roleOf?: (principal: P) => Role;
  /** A studio policy beyond the role (two-factor required of owners and admins), checked after it. */
  assertAllowed?: (principal: P, spec: RouteSpec) => void;
  /** Who acts, for the ledger and the audit log (lib/foundation/http/request-context.ts). */
  actorOf?: (principal: P) => RequestActor | undefined;
};

export type { RouteSpec, RouteDoc } from "./route-meta";

export type HandlerContext<P, S extends Schemas> = ParsedInput<S> & {
  req: Request;
  db: Db;
  principal: P;
  requestId: string;
};

/**
 * Builds the per-auth-mode wrappers (withAccount, withPublic, withOperator):
 * request id, authentication, rate limit, zod parsing, one error envelope, and
 * one log line per request (ids, status, duration: never bodies, headers or queries).
 */
export function createWrapper<P>(auth: Authenticator<P>) {
  return function wrap<S extends RouteSpec>(schemas: S, run: (ctx: HandlerContext<P, S>) => Promise<Response>): Handler {
    const handler: Handler = async (req, routeCtx) => {
      const started = performance.now();
      const requestId = requestIdFor(req);
      let accountId: string | undefined;
      let limit: RateLimitState | undefined;
      let res: Response;
      try {
        const db = await getDb();
        let principal: P;
        try {
          principal = await auth.authenticate(req, db);
        } catch (err) {
          // Failed authentication still spends the caller's IP budget (slows guessing).
          if (err instanceof ApiError && err.status === 401) limit = await consumeRateLimit(`ip:${clientIp(req)}`);
          throw err;
        }
        accountId = auth.accountIdOf?.(principal);
        if (auth.roleOf) assertRole(auth.roleOf(principal), requiredRole(schemas, req.method));
        auth.assertAllowed?.(principal, schemas);
        const key = auth.rateLimitKey(principal, req);
        if (key) limit = await consumeRateLimit(key, auth.rateLimitBudget?.(principal));
        const scope = req.method === "POST" && schemas.idempotent !== false ? (auth.idempotencyScope?.(principal) ?? null) : null;
        const idempotent = await prepareIdempotentRequest(req, scope);
        const request = idempotent?.req ?? req;
        const input = await parseInput(request, routeCtx, schemas);
        const who = { actor: auth.actorOf?.(principal), ip: clientIp(req) };
        const handle = () => runInRequestContext(request, () => run({ ...input, req: request, db, principal, requestId }), who);
        res = idempotent ? await runIdempotent(db, idempotent, requestId, handle) : await handle();
      } catch (err) {
        res = errorResponse(err, requestId);
      }
      res.headers.set("X-Request-Id", requestId);
      if (!res.headers.has("Cache-Control")) res.headers.set("Cache-Control", "no-store");
      if (limit && !res.headers.has("RateLimit-Limit")) {
        for (const [k, v] of Object.entries(rateLimitHeaders(limit))) res.headers.set(k, v);
      }
      logger().info(
        { request_id: requestId, method: req.method, path: new URL(req.url).pathname, status: res.status, account_id: accountId, duration_ms: Math.round(performance.now() - started) },
        "request",
      );
      return res;
    };
    return withRouteMeta(handler, { spec: schemas, auth: auth.kind });
  };
}

/** The role a route needs: what it declares, else the default for its method. */
export function requiredRole(spec: RouteSpec, method: string): Role {
  return spec.role ?? defaultRole(method);
}
