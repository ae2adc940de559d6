import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { refundOrder } from "@/lib/services/orders/studio-orders";
import { orderParams, orderResponse, refundBody } from "@/lib/services/orders/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withAccount({ role: "admin", params: orderParams, body: refundBody, doc: { summary: "Refund one item, or what is left of the order, through Stripe", response: orderResponse } }, async ({ db, principal, params, body }) =>
    Response.json(await refundOrder(db, principal.account.id, params.id, body)),
  ),
});
