import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { revokeApiKey } from "@/lib/domain/identity/api-keys";
import { apiKeyParams } from "@/lib/domain/identity/api-key-schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  DELETE: withAccount({ role: "admin", params: apiKeyParams, doc: { summary: "Revoke an API key (refused from the next request, on every instance)", status: 204 } }, async ({ db, principal, params }) => {
    await revokeApiKey(db, principal.account.id, params.id);
    return new Response(null, { status: 204 });
  }),
});
