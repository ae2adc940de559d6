import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { orderPrintFiles } from "@/lib/services/production/batches";
import { orderParams, printFileListResponse } from "@/lib/services/production/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ role: "photographer", params: orderParams, doc: { summary: "An order's print files: their pictures, batches and holds with the reasons", response: printFileListResponse } }, async ({ db, principal, params }) =>
    Response.json(await orderPrintFiles(db, principal.account.id, params.id)),
  ),
});
