import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { pageQuery, pageWindow, paginatedBody, paginatedResponse } from "@/lib/foundation/http/pagination";
import { listDeliveries } from "@/lib/domain/webhooks/deliveries";
import { deliveryResponse, endpointParams } from "@/lib/domain/webhooks/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount(
    { role: "admin", params: endpointParams, query: pageQuery, doc: { summary: "Recent deliveries of a webhook endpoint, with their attempts", response: paginatedResponse(deliveryResponse) } },
    async ({ db, principal, params, query, req }) => {
      const { items, total } = await listDeliveries(db, principal.account.id, params.id, pageWindow(query));
      return Response.json(paginatedBody(req, query, items, total, "deliveries"));
    },
  ),
});
