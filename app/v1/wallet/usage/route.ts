import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { usageByDay } from "@/lib/wallet/usage-by-day";
import { usageQuery } from "@/lib/wallet/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ query: usageQuery }, async ({ db, principal, query }) =>
    Response.json({ data: await usageByDay(db, principal.account.id, query.days) }),
  ),
});
