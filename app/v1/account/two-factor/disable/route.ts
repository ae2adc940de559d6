import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { requirePerson } from "@/lib/auth/roles";
import { disableTwoFactor } from "@/lib/accounts/two-factor";
import { disableTwoFactorBody, twoFactorDisabledResponse } from "@/lib/accounts/two-factor-schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withAccount(
    { role: "viewer", allowWithoutTwoFactor: true, body: disableTwoFactorBody, doc: { summary: "Turn two-factor off (needs the password and a code; 409 while a studio you own or administer requires it)", response: twoFactorDisabledResponse } },
    async ({ db, principal, body }) => Response.json(await disableTwoFactor(db, requirePerson(principal.user), body)),
  ),
});
