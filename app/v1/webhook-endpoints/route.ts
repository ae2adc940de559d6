import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { pageQuery, pageWindow, paginatedBody, paginatedResponse } from "@/lib/foundation/http/pagination";
import { createEndpoint, listEndpoints } from "@/lib/domain/webhooks/endpoints";
import { createEndpointBody, endpointResponse, endpointWithSecretResponse } from "@/lib/domain/webhooks/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ role: "admin", query: pageQuery, doc: { summary: "List the webhook endpoints", response: paginatedResponse(endpointResponse) } }, async ({ db, principal, query, req }) => {
    const { items, total } = await listEndpoints(db, principal.account.id, pageWindow(query));
    return Response.json(paginatedBody(req, query, items, total, "webhook endpoints"));
  }),
  POST: withAccount(
    { role: "admin",
      body: createEndpointBody,
      doc: {
        summary: "Create a webhook endpoint (the signing secret is shown once)",
        status: 201,
        response: endpointWithSecretResponse,
        examples: { request: { url: "https://example.com/hooks/print-studio", events: ["bg_removal.completed", "bg_removal.failed"] } },
      },
    },
    async ({ db, principal, body }) => Response.json(await createEndpoint(db, principal.account.id, body), { status: 201 }),
  ),
});
