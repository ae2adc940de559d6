import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { toPublicAccount } from "@/lib/accounts/public-account";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({}, async ({ principal }) => Response.json(toPublicAccount(principal.account))),
});
