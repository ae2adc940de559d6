import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { accounts } from "@/lib/foundation/db/schema";
import { stripe, viaStripe } from "./stripe-client";

export type Account = typeof accounts.$inferSelect;

/**
 * The account's Stripe customer, created once. Stripe's idempotency key makes two
 * concurrent first checkouts create one customer; the conditional update keeps the
 * first id stored if they still race.
 */
export async function ensureCustomer(db: Db, account: Account): Promise<string> {
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
