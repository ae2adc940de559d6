import type { Db } from "@/lib/db/types";
import { ApiError } from "@/lib/http/api-error";
import { issueAccessToken } from "@/lib/auth/access-token";
import { assertLoginAllowed, recordLoginFailure } from "@/lib/auth/login-throttle";
import { verifyCredentials } from "./verify-credentials";
import { auditSignIn } from "./sign-in-audit";
import { config } from "@/lib/config";
import { currentClientIp, currentUserAgent } from "@/lib/http/request-context";
import { startLoginSession } from "@/lib/auth/login-sessions";

/** The login session an access token belongs to: listed on the account page, ended there. */
export function startApiSession(db: Db, userId: string): Promise<string> {
  return startLoginSession(db, { userId, kind: "api", ip: currentClientIp(), userAgent: currentUserAgent(), ttlSeconds: config().ACCESS_TOKEN_TTL_SECONDS });
}

/** POST /v1/auth/token: email + password -> a Bearer access token. */
export async function issueTokenForCredentials(db: Db, email: string, password: string) {
  await assertLoginAllowed(email);
  const account = await verifyCredentials(db, email, password);
  await auditSignIn(db, { email, account, channel: "api" });
  if (!account) {
    await recordLoginFailure(email);
    throw new ApiError(401, "INVALID_CREDENTIALS", "The email or password is wrong.");
  }
  const { token, expiresIn } = await issueAccessToken(account, await startApiSession(db, account.id));
  return { access_token: token, token_type: "Bearer" as const, expires_in: expiresIn };
}
