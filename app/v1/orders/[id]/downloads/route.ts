import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { resendDownloads } from "@/lib/services/orders/download-links";
import { downloadsResentResponse, orderParams, resendDownloadsBody } from "@/lib/services/orders/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withAccount({ role: "admin", params: orderParams, body: resendDownloadsBody, doc: { summary: "E-mail the parent fresh links to the order's full-resolution downloads", response: downloadsResentResponse } }, async ({ db, principal, params }) =>
    Response.json(await resendDownloads(db, principal.account.id, params.id)),
  ),
});
