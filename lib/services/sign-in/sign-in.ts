import type { Db } from "@/lib/foundation/db/types";
import { ApiError } from "@/lib/foundation/http/api-error";
import { assertLoginAllowed, recordLoginFailure } from "@/lib/domain/identity/login-throttle";
import { verifyCredentials } from "@/lib/domain/identity/verify-credentials";
import { auditSignIn } from "./sign-in-audit";
import { checkSecondFactor } from "@/lib/domain/identity/two-factor";
import type { AccountRow } from "@/lib/domain/identity/public-account";

export type SignInInput = { email: string; password: string; code?: string; channel: "studio" | "api"; ip?: string | null };

/**
 * Password, then (when the login has it on) the second factor: the one path both
 * the studio's sign-in and POST /v1/auth/token take. Wrong passwords and wrong
 * codes count against the same per-email throttle. Errors:
 * 401 INVALID_CREDENTIALS, 401 TWO_FACTOR_REQUIRED (password right, no code sent:
 * ask for it), 401 INVALID_TWO_FACTOR_CODE, 429 TOO_MANY_LOGIN_ATTEMPTS.
 */
export async function signInWithPassword(db: Db, input: SignInInput): Promise<AccountRow> {
  await assertLoginAllowed(input.email);
  const account = await verifyCredentials(db, input.email, input.password);
  if (!account) {
    await auditSignIn(db, { email: input.email, account: null, outcome: "failed", channel: input.channel, ip: input.ip });
    await recordLoginFailure(input.email);
    throw new ApiError(401, "INVALID_CREDENTIALS", "The email or password is wrong.");
  }
  let secondFactor: "totp" | "recovery_code" | null = null;
  if (account.twoFactorEnabledAt) {
    // Asking for the code reveals nothing: only someone who knows the password gets here.
    if (!input.code?.trim()) throw new ApiError(401, "TWO_FACTOR_REQUIRED", "Two-factor sign-in is on: send the 6-digit code from the authenticator app, or a recovery code.", { field: "code" });
    secondFactor = await checkSecondFactor(db, account, input.code);
    if (!secondFactor) {
      await auditSignIn(db, { email: input.email, account, outcome: "failed", channel: input.channel, ip: input.ip, reason: "two_factor_code" });
      await recordLoginFailure(input.email);
      throw new ApiError(401, "INVALID_TWO_FACTOR_CODE", "That code does not match: a current code from the app, or an unused recovery code.", { field: "code" });
    }
  }
  await auditSignIn(db, { email: input.email, account, outcome: "signed_in", channel: input.channel, ip: input.ip, secondFactor });
  return account;
}
