import { withAccount } from "@/lib/http/wrappers";
import { callingAccountResponse, publicAccountResponse, renameAccountBody } from "@/lib/accounts/schemas";
import { methods } from "@/lib/http/methods";
import { toPublicAccount } from "@/lib/accounts/public-account";
import { renameAccount } from "@/lib/accounts/account-settings";
import { personName } from "@/lib/accounts/person-name";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ allowWithoutTwoFactor: true, doc: { summary: "The studio the caller acts for, and the caller's role in it", response: callingAccountResponse } }, async ({ principal }) =>
    Response.json({
      ...toPublicAccount(principal.account),
      role: principal.role,
      require_two_factor: principal.account.requireTwoFactor,
      member: principal.user
        ? {
            user_id: principal.user.id,
            name: personName(principal.user),
            email: principal.user.email,
            email_verified: principal.user.emailVerifiedAt !== null,
            two_factor_enabled: principal.user.twoFactorEnabledAt !== null,
          }
        : null,
    }),
  ),
  PATCH: withAccount({ role: "admin", body: renameAccountBody, doc: { summary: "Rename the account (the studio's name)", response: publicAccountResponse } }, async ({ db, principal, body }) =>
    Response.json(toPublicAccount(await renameAccount(db, principal.account.id, body.name))),
  ),
});
