import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/lib/db/types";
import { accounts, billingCheckouts } from "@/lib/db/schema";
import { appOrigin } from "@/lib/http/app-origin";
import { requirePack } from "./packs";
import { stripe, viaStripe } from "./stripe-client";

type Account = typeof accounts.$inferSelect;

/**
 * The account's Stripe customer, created once. Stripe's idempotency key makes two
 * concurrent first checkouts create one customer; the conditional update keeps the
 * first id stored if they still race.
 */
async function ensureCustomer(db: Db, account: Account): Promise<string> {
  // Read fresh: the signed-in principal may be a cached copy of the account.
  const [stored] = await db.select({ id: accounts.stripeCustomerId }).from(accounts).where(eq(accounts.id, account.id));
  if (stored?.id) return stored.id;
  const customer = await viaStripe("create the customer", () =>
    stripe().customers.create({ email: account.email, name: account.name ?? undefined, metadata: { account_id: account.id } }, { idempotencyKey: `customer-${account.id}` }),
  );
  await db.update(accounts).set({ stripeCustomerId: customer.id }).where(and(eq(accounts.id, account.id), isNull(accounts.stripeCustomerId)));
  const [row] = await db.select({ id: accounts.stripeCustomerId }).from(accounts).where(eq(accounts.id, account.id));
  return row?.id ?? customer.id;
}

/**
 * A Stripe Checkout Session (mode payment) for one token pack. The pack is recorded
 * with the session, so the webhook credits exactly what was sold. The customer pays
 * on Stripe's page and comes back to /wallet/top-up?session=…
 */
export async function startCheckout(db: Db, account: Account, packId: string) {
  const pack = requirePack(packId);
  const customer = await ensureCustomer(db, account);
  const origin = appOrigin();
  const metadata = { account_id: account.id, pack: pack.id, tokens: String(pack.tokens) };
  const session = await viaStripe("open a checkout page", () =>
    stripe().checkout.sessions.create({
    mode: "payment",
    customer,
    client_reference_id: account.id,
    line_items: [{ quantity: 1, price_data: { currency: pack.currency, unit_amount: pack.price, product_data: { name: `${pack.tokens.toLocaleString("en-US")} tokens` } } }],
    metadata,
    payment_intent_data: { metadata },
    success_url: `${origin}/wallet/top-up?session={CHECKOUT_SESSION_ID}`,
    cancel_url: `${origin}/wallet/top-up?canceled=1`,
    }),
  );
  if (!session.url) throw new Error(`Stripe returned checkout session ${session.id} without a URL`);
  await db.insert(billingCheckouts).values({ id: session.id, accountId: account.id, packId: pack.id, tokens: pack.tokens, amount: pack.price, currency: pack.currency });
  return { checkout_url: session.url, session_id: session.id };
}
