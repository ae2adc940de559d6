import { withAccount } from "@/lib/http/wrappers";
import { callingAccountResponse, deleteStudioBody, publicAccountResponse, renameAccountBody, studioDeletedResponse } from "@/lib/services/sign-in/schemas";
import { requirePerson } from "@/lib/domain/identity/roles";
import { deleteStudio } from "@/lib/services/team/delete-studio";
import { methods } from "@/lib/http/methods";
import { toPublicAccount } from "@/lib/domain/identity/public-account";
import { renameAccount } from "@/lib/services/sign-in/account-settings";
import { personName } from "@/lib/domain/identity/person-name";

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
  DELETE: withAccount(
    {
      role: "owner",
      body: deleteStudioBody,
      doc: {
        summary: "Delete the studio and its login, with every file and record it holds (its own login only; name, password and two-factor code to confirm)",
        response: studioDeletedResponse,
      },
    },
    async ({ db, principal, body }) => Response.json(await deleteStudio(db, principal.account, requirePerson(principal.user), body)),
  ),
});
