import { withAccount } from "@/lib/http/wrappers";
import { publicAccountResponse, renameAccountBody } from "@/lib/accounts/schemas";
import { methods } from "@/lib/http/methods";
import { toPublicAccount } from "@/lib/accounts/public-account";
import { renameAccount } from "@/lib/accounts/account-settings";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ doc: { summary: "The calling account", response: publicAccountResponse } }, async ({ principal }) => Response.json(toPublicAccount(principal.account))),
  PATCH: withAccount({ body: renameAccountBody, doc: { summary: "Rename the account (the studio's name)", response: publicAccountResponse } }, async ({ db, principal, body }) =>
    Response.json(toPublicAccount(await renameAccount(db, principal.account.id, body.name))),
  ),
});
