import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { salesByJob } from "@/lib/services/orders/studio-orders";
import { salesQuery, salesResponse } from "@/lib/services/orders/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ role: "admin", query: salesQuery, doc: { summary: "Sales per job: gross, refunds, fees, lab cost, net (minor units)", response: salesResponse } }, async ({ db, principal, query }) =>
    Response.json(await salesByJob(db, principal.account.id, query)),
  ),
});
