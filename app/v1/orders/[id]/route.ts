import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { getOrder } from "@/lib/services/orders/studio-orders";
import { moveOrder } from "@/lib/services/production/batch-status";
import { orderParams, orderResponse, updateOrderBody } from "@/lib/services/orders/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ role: "photographer", params: orderParams, doc: { summary: "An order with its items and refunds", response: orderResponse } }, async ({ db, principal, params }) =>
    Response.json(await getOrder(db, principal.account.id, params.id)),
  ),
  PATCH: withAccount({ role: "admin", params: orderParams, body: updateOrderBody, doc: { summary: "Move an order on: in_production, shipped (tracking; 409 PRINT_FILES_WAITING while a print file is held or not rendered), delivered", response: orderResponse } }, async ({ db, principal, params, body }) =>
    Response.json(await moveOrder(db, principal.account.id, params.id, body)),
  ),
});
