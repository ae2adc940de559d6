import { ApiError } from "@/lib/foundation/http/api-error";
import { verifyPassword } from "@/lib/domain/identity/password";
import { assertLoginAllowed, recordLoginFailure } from "@/lib/domain/identity/login-throttle";
import type { AccountRow } from "./public-account";

/** The current password, checked under the same per-email throttle as sign-in (a stolen session must not guess it freely). */
export async function assertCurrentPassword(account: AccountRow, password: string): Promise<void> {
  await assertLoginAllowed(account.email);
  if (await verifyPassword(account.passwordHash, password)) return;
  await recordLoginFailure(account.email);
  throw new ApiError(400, "WRONG_PASSWORD", "The current password is wrong.", { fields: [{ field: "current_password", message: "Wrong password." }] });
}

