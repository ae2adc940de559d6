import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { rotateEndpointSecret } from "@/lib/domain/webhooks/endpoints";
import { endpointParams, endpointWithSecretResponse } from "@/lib/domain/webhooks/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withAccount({ role: "admin", params: endpointParams, doc: { summary: "Rotate a webhook endpoint's signing secret (the new secret is shown once)", response: endpointWithSecretResponse } }, async ({ db, principal, params }) =>
    Response.json(await rotateEndpointSecret(db, principal.account.id, params.id)),
  ),
});
