import { withParent } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { startParentCheckout } from "@/lib/services/orders/checkout";
import { checkoutBody, checkoutResponse } from "@/lib/services/orders/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withParent(
    { body: checkoutBody, doc: { summary: "Check out the cart: prices from the job's price sheet, payment on the studio's Stripe page (answers its URL)", status: 201, response: checkoutResponse } },
    async ({ db, principal, body }) => Response.json(await startParentCheckout(db, principal, body), { status: 201 }),
  ),
});
