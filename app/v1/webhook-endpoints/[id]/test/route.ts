import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { sendTestEvent } from "@/lib/domain/webhooks/deliveries";
import { deliveryResponse, endpointParams } from "@/lib/domain/webhooks/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withAccount({ role: "admin", params: endpointParams, doc: { summary: "Send a webhook.test event to the endpoint", status: 202, response: deliveryResponse } }, async ({ db, principal, params }) =>
    Response.json(await sendTestEvent(db, principal.account.id, params.id), { status: 202 }),
  ),
});
