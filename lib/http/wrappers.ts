import crypto from "node:crypto";
import { authenticateAccount, type AccountPrincipal } from "@/lib/services/sign-in/authenticate-account";
import { config } from "@/lib/foundation/config";
import { ApiError, notFound, unauthorized } from "../foundation/http/api-error";
import { clientIp } from "../foundation/http/client-ip";
import { createWrapper } from "./create-handler";
import { memberRateLimitBudget, memberRateLimitKey } from "./rate-limit";
import { personName } from "@/lib/domain/identity/person-name";
import { assertStudioTwoFactor } from "@/lib/services/sign-in/two-factor-policy";
import { authenticateParent, type ParentPrincipal } from "@/lib/services/galleries/parent-principal";

/** Endpoints for a signed-in account: Bearer access token, API key, or the studio session. */
export const withAccount = createWrapper<AccountPrincipal>({
  kind: "account",
  authenticate: authenticateAccount,
  rateLimitKey: memberRateLimitKey,
  rateLimitBudget: memberRateLimitBudget,
  accountIdOf: (p) => p.account.id,
  idempotencyScope: (p) => p.account.id,
  roleOf: (p) => p.role,
  assertAllowed: (p, spec) => assertStudioTwoFactor(p, spec.allowWithoutTwoFactor === true),
  actorOf: (p) =>
    p.apiKeyId ? { type: "api_key", apiKeyId: p.apiKeyId, name: "API key" } : p.user ? { type: "member", userId: p.user.id, name: personName(p.user) } : undefined,
});

/** Endpoints anyone may call (register, token): limited per IP. */
export const withPublic = createWrapper<null>({
  kind: "public",
  authenticate: async () => null,
  rateLimitKey: (_p, req) => `ip:${clientIp(req)}`,
});

/**
 * Operator endpoints exist only when OPERATOR_TOKEN is set: otherwise they are
 * indistinguishable from unknown paths (404).
 */
export const withOperator = createWrapper<"operator">({
  kind: "operator",
  authenticate: async (req) => {
    const expected = config().OPERATOR_TOKEN;
    if (!expected) throw notFound("Path");
    const given = req.headers.get("authorization")?.match(/^Bearer\s+(\S+)$/i)?.[1];
    if (!given) throw unauthorized("Operator endpoints need Authorization: Bearer <OPERATOR_TOKEN>.");
    const a = crypto.createHash("sha256").update(given).digest();
    const b = crypto.createHash("sha256").update(expected).digest();
    if (!crypto.timingSafeEqual(a, b)) throw new ApiError(401, "UNAUTHORIZED", "The operator token is wrong.");
    return "operator";
  },
  rateLimitKey: (_p, req) => `op:${clientIp(req)}`,
  idempotencyScope: () => "operator",
});

/**
 * Parent gallery endpoints (/v1/parent/...): `Authorization: Bearer <gallery token>`
 * from POST /v1/parent/access. The handler's principal is the code's account, job
 * and child, and the ids of the galleries open to it now (its own and the job's
 * group gallery); every query a handler makes must stay inside those.
 */
export const withParent = createWrapper<ParentPrincipal>({
  kind: "parent",
  authenticate: authenticateParent,
  rateLimitKey: (p) => `parent:${p.subjectId}`,
  accountIdOf: (p) => p.accountId,
  // A POST (checkout) with Idempotency-Key replays per child's code, apart from the studio's own keys.
  idempotencyScope: (p) => `parent:${p.accountId}:${p.subjectId}`,
});
