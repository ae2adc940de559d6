import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { requirePerson } from "@/lib/domain/identity/roles";
import { regenerateRecoveryCodes } from "@/lib/domain/identity/two-factor";
import { recoveryCodesBody, recoveryCodesResponse } from "@/lib/services/sign-in/two-factor-schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withAccount(
    { role: "viewer", allowWithoutTwoFactor: true, idempotent: false, body: recoveryCodesBody, doc: { summary: "New recovery codes (the old ones stop working; needs the password)", response: recoveryCodesResponse } },
    async ({ db, principal, body }) => Response.json(await regenerateRecoveryCodes(db, requirePerson(principal.user), body.current_password)),
  ),
});
