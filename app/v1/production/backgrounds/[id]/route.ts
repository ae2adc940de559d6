import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { deleteBackground } from "@/lib/services/production/backgrounds";
import { backgroundDeletedResponse, backgroundParams } from "@/lib/services/production/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  DELETE: withAccount({ role: "admin", params: backgroundParams, doc: { summary: "Delete a background (prints of orders that chose it are held for the studio's choice)", response: backgroundDeletedResponse } }, async ({ db, principal, params }) =>
    Response.json(await deleteBackground(db, principal.account.id, params.id)),
  ),
});
