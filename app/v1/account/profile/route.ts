import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { requirePerson } from "@/lib/domain/identity/roles";
import { renamePerson } from "@/lib/services/sign-in/account-settings";
import { profileBody, profileResponse } from "@/lib/services/sign-in/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  PATCH: withAccount(
    { role: "viewer", allowWithoutTwoFactor: true, body: profileBody, doc: { summary: "Your own name, as your studios see it (team, ledger, audit log); PATCH /v1/account renames the studio", response: profileResponse } },
    async ({ db, principal, body }) => Response.json(await renamePerson(db, requirePerson(principal.user), body.name)),
  ),
});
