import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { deletePromo } from "@/lib/services/orders/promo-codes";
import { deletedResponse, promoParams } from "@/lib/services/orders/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  DELETE: withAccount({ role: "admin", params: promoParams, doc: { summary: "Delete a promo code", response: deletedResponse } }, async ({ db, principal, params }) =>
    Response.json(await deletePromo(db, principal.account.id, params.id, params.codeId)),
  ),
});
