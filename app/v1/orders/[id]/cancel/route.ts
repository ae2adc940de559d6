import { z } from "zod";
import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { cancelOrder } from "@/lib/services/orders/studio-orders";
import { orderParams, orderResponse } from "@/lib/services/orders/schemas";

export const dynamic = "force-dynamic";

const cancelBody = z.strictObject({ reason: z.string().trim().max(500).optional() });

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withAccount({ role: "admin", params: orderParams, body: cancelBody, doc: { summary: "Cancel an order: unpaid, or paid and not shipped (refunded in full)", response: orderResponse } }, async ({ db, principal, params, body }) =>
    Response.json(await cancelOrder(db, principal.account.id, params.id, body.reason)),
  ),
});
