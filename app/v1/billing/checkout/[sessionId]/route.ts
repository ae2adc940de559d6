import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { getCheckout } from "@/lib/services/billing/checkout-status";
import { checkoutParams, checkoutStatusResponse } from "@/lib/services/billing/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ role: "owner", params: checkoutParams, doc: { summary: "A token pack checkout: open, awaiting_payment, paid (credited), failed or expired, with the balance", response: checkoutStatusResponse } }, async ({ db, principal, params }) =>
    Response.json(await getCheckout(db, principal.account.id, params.sessionId)),
  ),
});
