import { ApiError } from "@/lib/foundation/http/api-error";
import type { AccountPrincipal } from "./authenticate-account";
import { roleAtLeast } from "@/lib/domain/identity/roles";

/**
 * A studio that requires two-factor (PUT /v1/account/two-factor-requirement) shuts
 * out its owners and admins who have not turned it on, whatever they sign in with,
 * except on the routes that let them turn it on (`exempt`: the route spec's
 * `allowWithoutTwoFactor`). API keys
 * are the studio's, not a person's sign-in, and keep working.
 */
export function assertStudioTwoFactor(p: AccountPrincipal, exempt: boolean): void {
  if (!p.user || !p.account.requireTwoFactor || exempt) return;
  if (!roleAtLeast(p.role, "admin") || p.user.twoFactorEnabledAt) return;
  throw new ApiError(
    403,
    "TWO_FACTOR_SETUP_REQUIRED",
    `${p.account.name} requires two-factor sign-in of its owners and admins: turn it on from your account page (POST /v1/account/two-factor) to act for this studio.`,
    { studio_id: p.account.id },
  );
}
