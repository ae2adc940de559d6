import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { productionUsage } from "@/lib/services/production/usage";
import { usageQuery, usageResponse } from "@/lib/services/production/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ role: "photographer", query: usageQuery, doc: { summary: "The studio's production usage over days: the cut-outs (person mattes) made for prints and for the storefront's previews", response: usageResponse } }, async ({ db, principal, query }) =>
    Response.json(await productionUsage(db, principal.account.id, query)),
  ),
});
