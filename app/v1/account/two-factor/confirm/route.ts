import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { requirePerson } from "@/lib/domain/identity/roles";
import { confirmTwoFactorSetup } from "@/lib/domain/identity/two-factor";
import { confirmTwoFactorBody, twoFactorEnabledResponse } from "@/lib/services/sign-in/two-factor-schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withAccount(
    { role: "viewer", allowWithoutTwoFactor: true, idempotent: false, body: confirmTwoFactorBody, doc: { summary: "Turn two-factor on with a first code from the app; answers the recovery codes, shown this once", response: twoFactorEnabledResponse } },
    async ({ db, principal, body }) => Response.json(await confirmTwoFactorSetup(db, requirePerson(principal.user), body.code)),
  ),
});
