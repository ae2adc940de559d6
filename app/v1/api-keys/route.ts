import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { pageQuery, pageWindow, paginatedBody, paginatedResponse } from "@/lib/foundation/http/pagination";
import { createApiKey, listApiKeys } from "@/lib/domain/identity/api-keys";
import { apiKeyResponse, createApiKeyBody, createdApiKeyResponse } from "@/lib/domain/identity/api-key-schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ role: "admin", query: pageQuery, doc: { summary: "List the active API keys", response: paginatedResponse(apiKeyResponse) } }, async ({ db, principal, query, req }) => {
    const { items, total } = await listApiKeys(db, principal.account.id, pageWindow(query));
    return Response.json(paginatedBody(req, query, items, total, "API keys"));
  }),
  POST: withAccount({ role: "admin", body: createApiKeyBody, doc: { summary: "Create an API key (the key is shown once)", status: 201, response: createdApiKeyResponse, examples: { request: { name: "Production server" } } } }, async ({ db, principal, body }) =>
    Response.json(await createApiKey(db, principal.account.id, body.name, principal.user?.id ?? null), { status: 201 }),
  ),
});
