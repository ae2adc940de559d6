import type { Db } from "@/lib/db/types";
import { ApiError } from "@/lib/http/api-error";
import { issueAccessToken } from "@/lib/auth/access-token";
import { assertLoginAllowed, recordLoginFailure } from "@/lib/auth/login-throttle";
import { verifyCredentials } from "./verify-credentials";
import { auditSignIn } from "./sign-in-audit";

/** POST /v1/auth/token: email + password -> a Bearer access token. */
export async function issueTokenForCredentials(db: Db, email: string, password: string) {
  await assertLoginAllowed(email);
  const account = await verifyCredentials(db, email, password);
  await auditSignIn(db, { email, account, channel: "api" });
  if (!account) {
    await recordLoginFailure(email);
    throw new ApiError(401, "INVALID_CREDENTIALS", "The email or password is wrong.");
  }
  const { token, expiresIn } = await issueAccessToken(account);
  return { access_token: token, token_type: "Bearer" as const, expires_in: expiresIn };
}
