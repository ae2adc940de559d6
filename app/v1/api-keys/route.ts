import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { pageQuery, pageWindow, paginatedBody } from "@/lib/http/pagination";
import { createApiKey, listApiKeys } from "@/lib/api-keys/api-keys";
import { createApiKeyBody } from "@/lib/api-keys/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ query: pageQuery }, async ({ db, principal, query, req }) => {
    const { items, total } = await listApiKeys(db, principal.account.id, pageWindow(query));
    return Response.json(paginatedBody(req, query, items, total, "API keys"));
  }),
  POST: withAccount({ body: createApiKeyBody }, async ({ db, principal, body }) =>
    Response.json(await createApiKey(db, principal.account.id, body.name), { status: 201 }),
  ),
});
