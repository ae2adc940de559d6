import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { usageByDay } from "@/lib/domain/wallet/usage-by-day";
import { usageResponse, usageQuery } from "@/lib/domain/wallet/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ query: usageQuery, doc: { summary: "Tokens spent and granted per UTC day", response: usageResponse } }, async ({ db, principal, query }) =>
    Response.json({ data: await usageByDay(db, principal.account.id, query.days) }),
  ),
});
