import { recordAudit } from "@/lib/domain/audit/record-audit";
import type { Db } from "@/lib/foundation/db/types";
import { billingCheckouts } from "@/lib/foundation/db/schema";
import { appOrigin } from "@/lib/foundation/http/app-origin";
import { requirePack } from "./packs";
import { stripe, viaStripe } from "./stripe-client";
import { ensureCustomer, type Account } from "./stripe-customer";

/**
 * A Stripe Checkout Session (mode payment) for one token pack. The pack is recorded
 * with the session, so the webhook credits exactly what was sold. The customer pays
 * on Stripe's page and comes back to /wallet/top-up?session=…
 */
export async function startCheckout(db: Db, account: Account, packId: string, opts: { saveCard?: boolean } = {}) {
  const pack = requirePack(packId);
  const customer = await ensureCustomer(db, account);
  const origin = appOrigin();
  const metadata = { account_id: account.id, pack: pack.id, tokens: String(pack.tokens), ...(opts.saveCard ? { save_card: "1" } : {}) };
  const session = await viaStripe("open a checkout page", () =>
    stripe().checkout.sessions.create({
    mode: "payment",
    customer,
    client_reference_id: account.id,
    line_items: [{ quantity: 1, price_data: { currency: pack.currency, unit_amount: pack.price, product_data: { name: `${pack.tokens.toLocaleString("en-US")} tokens` } } }],
    metadata,
    // Saving the card for auto top-up: Checkout tells the customer it will be charged later, off-session.
    payment_intent_data: { metadata, ...(opts.saveCard ? { setup_future_usage: "off_session" as const } : {}) },
    success_url: `${origin}/wallet/top-up?session={CHECKOUT_SESSION_ID}`,
    cancel_url: `${origin}/wallet/top-up?canceled=1`,
    }),
  );
  if (!session.url) throw new Error(`Stripe returned checkout session ${session.id} without a URL`);
  await db.insert(billingCheckouts).values({ id: session.id, accountId: account.id, packId: pack.id, tokens: pack.tokens, amount: pack.price, currency: pack.currency });
  await recordAudit(db, { accountId: account.id, action: "billing.checkout_started", target: session.id, data: { pack: pack.id, save_card: Boolean(opts.saveCard) } });
  return { checkout_url: session.url, session_id: session.id };
}
