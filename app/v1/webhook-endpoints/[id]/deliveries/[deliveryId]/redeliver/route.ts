import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { redeliver } from "@/lib/domain/webhooks/deliveries";
import { deliveryParams, deliveryResponse } from "@/lib/domain/webhooks/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withAccount({ role: "admin", params: deliveryParams, doc: { summary: "Attempt a finished delivery again", status: 202, response: deliveryResponse } }, async ({ db, principal, params }) =>
    Response.json(await redeliver(db, principal.account.id, params.id, params.deliveryId), { status: 202 }),
  ),
});
