import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { requirePerson } from "@/lib/domain/identity/roles";
import { setTwoFactorRequirement, twoFactorRequirement } from "@/lib/services/team/two-factor-requirement";
import { twoFactorRequirementBody, twoFactorRequirementResponse } from "@/lib/services/sign-in/two-factor-schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ role: "admin", doc: { summary: "Whether the studio requires two-factor of its owners and admins, and who has not turned it on", response: twoFactorRequirementResponse } }, async ({ db, principal }) =>
    Response.json(await twoFactorRequirement(db, principal.account)),
  ),
  PUT: withAccount(
    { role: "owner", body: twoFactorRequirementBody, doc: { summary: "Require two-factor sign-in of the studio's owners and admins (needs your own on first)", response: twoFactorRequirementResponse } },
    async ({ db, principal, body }) => Response.json(await setTwoFactorRequirement(db, principal.account, requirePerson(principal.user), body.required)),
  ),
});
