import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { requirePerson } from "@/lib/domain/identity/roles";
import { beginTwoFactorSetup, twoFactorStatus } from "@/lib/domain/identity/two-factor";
import { beginTwoFactorBody, twoFactorSetupResponse, twoFactorStatusResponse } from "@/lib/services/sign-in/two-factor-schemas";

export const dynamic = "force-dynamic";

// Not idempotent: a replayed answer would hand the secret out again.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ role: "viewer", allowWithoutTwoFactor: true, doc: { summary: "Your two-factor sign-in: on or off, recovery codes left, studios that require it", response: twoFactorStatusResponse } }, async ({ db, principal }) =>
    Response.json(await twoFactorStatus(db, requirePerson(principal.user))),
  ),
  POST: withAccount(
    { role: "viewer", allowWithoutTwoFactor: true, idempotent: false, body: beginTwoFactorBody, doc: { summary: "Start turning two-factor on: a secret and QR code for the authenticator app (needs the password)", response: twoFactorSetupResponse } },
    async ({ db, principal, body }) => Response.json(await beginTwoFactorSetup(db, requirePerson(principal.user), body.current_password)),
  ),
});
