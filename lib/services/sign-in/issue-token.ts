import type { Db } from "@/lib/foundation/db/types";
import { issueAccessToken } from "@/lib/domain/identity/access-token";
import { signInWithPassword } from "./sign-in";
import { config } from "@/lib/foundation/config";
import { currentClientIp, currentUserAgent } from "@/lib/foundation/http/request-context";
import { startLoginSession } from "@/lib/domain/identity/login-sessions";

/** The login session an access token belongs to: listed on the account page, ended there. */
export function startApiSession(db: Db, userId: string): Promise<string> {
  return startLoginSession(db, { userId, kind: "api", ip: currentClientIp(), userAgent: currentUserAgent(), ttlSeconds: config().ACCESS_TOKEN_TTL_SECONDS });
}

/** POST /v1/auth/token: email + password (+ the two-factor code when the login has it on) -> a Bearer access token. */
export async function issueTokenForCredentials(db: Db, input: { email: string; password: string; code?: string }) {
  const account = await signInWithPassword(db, { ...input, channel: "api", ip: currentClientIp() });
  const { token, expiresIn } = await issueAccessToken(account, await startApiSession(db, account.id));
  return { access_token: token, token_type: "Bearer" as const, expires_in: expiresIn };
}
