import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { createPromo, listPromos } from "@/lib/services/orders/promo-codes";
import { createPromoBody, promoListResponse, promoResponse, sheetParams } from "@/lib/services/orders/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ role: "photographer", params: sheetParams, doc: { summary: "A price sheet's promo codes, with their uses", response: promoListResponse } }, async ({ db, principal, params }) =>
    Response.json(await listPromos(db, principal.account.id, params.id)),
  ),
  POST: withAccount({ role: "admin", params: sheetParams, body: createPromoBody, doc: { summary: "Create a promo code (percent or amount, expiry, use limit)", status: 201, response: promoResponse } }, async ({ db, principal, params, body }) =>
    Response.json(await createPromo(db, principal.account.id, params.id, body), { status: 201 }),
  ),
});
