import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { requirePerson } from "@/lib/domain/identity/roles";
import { disableTwoFactor } from "@/lib/domain/identity/two-factor";
import { disableTwoFactorBody, twoFactorDisabledResponse } from "@/lib/services/sign-in/two-factor-schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withAccount(
    { role: "viewer", allowWithoutTwoFactor: true, body: disableTwoFactorBody, doc: { summary: "Turn two-factor off (needs the password and a code; 409 while a studio you own or administer requires it)", response: twoFactorDisabledResponse } },
    async ({ db, principal, body }) => Response.json(await disableTwoFactor(db, requirePerson(principal.user), body)),
  ),
});
