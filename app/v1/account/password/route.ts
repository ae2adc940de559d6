import { requirePerson } from "@/lib/domain/identity/roles";
import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { accessTokenResponse, changePasswordBody } from "@/lib/services/sign-in/schemas";
import { changePassword } from "@/lib/services/sign-in/account-settings";

export const dynamic = "force-dynamic";

// Not idempotent: a replayed answer would hand out the stored access token again.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withAccount({ allowWithoutTwoFactor: true, role: "viewer", body: changePasswordBody, idempotent: false, doc: { summary: "Change the password (needs the current one; ends every session, answers a new access token)", response: accessTokenResponse } }, async ({ db, principal, body }) =>
    Response.json(await changePassword(db, requirePerson(principal.user), body)),
  ),
});
