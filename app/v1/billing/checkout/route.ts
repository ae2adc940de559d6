import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { startCheckout } from "@/lib/services/billing/start-checkout";
import { startPremiumCheckout } from "@/lib/services/billing/premium";
import { checkoutBody, checkoutResponse } from "@/lib/services/billing/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: withAccount(
    { role: "owner", body: checkoutBody, doc: { summary: 'Open a Stripe Checkout page: a token pack ({ pack }, credited when Stripe\'s webhook confirms the payment) or Premium by the month ({ plan: "premium" })', response: checkoutResponse } },
    async ({ db, principal, body }) => Response.json(body.plan ? await startPremiumCheckout(db, principal.account) : await startCheckout(db, principal.account, body.pack!, { saveCard: body.save_card })),
  ),
});
