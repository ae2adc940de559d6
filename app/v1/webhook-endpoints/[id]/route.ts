import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { deleteEndpoint, getEndpoint, updateEndpoint } from "@/lib/domain/webhooks/endpoints";
import { endpointParams, endpointResponse, updateEndpointBody } from "@/lib/domain/webhooks/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ role: "admin", params: endpointParams, doc: { summary: "Get a webhook endpoint", response: endpointResponse } }, async ({ db, principal, params }) =>
    Response.json(await getEndpoint(db, principal.account.id, params.id)),
  ),
  PATCH: withAccount(
    { role: "admin", params: endpointParams, body: updateEndpointBody, doc: { summary: "Enable or disable a webhook endpoint, or change its events", response: endpointResponse, examples: { request: { enabled: true } } } },
    async ({ db, principal, params, body }) => Response.json(await updateEndpoint(db, principal.account.id, params.id, body)),
  ),
  DELETE: withAccount({ role: "admin", params: endpointParams, doc: { summary: "Delete a webhook endpoint and its deliveries", status: 204 } }, async ({ db, principal, params }) => {
    await deleteEndpoint(db, principal.account.id, params.id);
    return new Response(null, { status: 204 });
  }),
});
