import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { startCheckout } from "@/lib/services/billing/start-checkout";
import { checkoutBody, checkoutResponse } from "@/lib/services/billing/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withAccount({ body: checkoutBody, doc: { summary: "Open a Stripe Checkout page to buy a token pack (credited when Stripe's webhook confirms the payment)", response: checkoutResponse } }, async ({ db, principal, body }) =>
    Response.json(await startCheckout(db, principal.account, body.pack)),
  ),
});
