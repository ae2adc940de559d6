import { getDb } from "@/lib/foundation/db/client";
import { errorResponse } from "@/lib/http/error-response";
import { requestIdFor } from "@/lib/foundation/http/request-id";
import { handleStripeEvent, verifyStripeEvent } from "@/lib/services/billing/stripe-events";
import { handleConnectEvent } from "@/lib/services/orders/connect-events";

export const dynamic = "force-dynamic";

/**
 * Stripe's events (https://docs.stripe.com/webhooks). Authenticated by signature, not
 * by account: the raw body is verified with STRIPE_WEBHOOK_SECRET before anything is
 * read from it. Bad or missing signature: 400 and nothing changes; unknown type: 200.
 * An event that names a connected account (Stripe Connect: a studio's own account,
 * where parents pay for orders) goes to the orders; the rest is the platform's billing.
 */
export async function POST(req: Request) {
  const requestId = requestIdFor(req);
  try {
    const event = verifyStripeEvent(await req.text(), req.headers.get("stripe-signature"));
    const db = await getDb();
    const outcome = event.account ? await handleConnectEvent(db, { ...event, account: event.account }) : await handleStripeEvent(db, event);
    return Response.json({ received: true, outcome });
  } catch (err) {
    return errorResponse(err, requestId);
  }
}
