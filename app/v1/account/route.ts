import { withAccount } from "@/lib/http/wrappers";
import { publicAccountResponse } from "@/lib/accounts/schemas";
import { methods } from "@/lib/http/methods";
import { toPublicAccount } from "@/lib/accounts/public-account";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ doc: { summary: "The calling account", response: publicAccountResponse } }, async ({ principal }) => Response.json(toPublicAccount(principal.account))),
});
