import type Stripe from "stripe";
import { eq } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { stripeConnectAccounts } from "@/lib/foundation/db/schema";
import { appOrigin } from "@/lib/foundation/http/app-origin";
import { ApiError } from "@/lib/foundation/http/api-error";
import { recordAudit } from "@/lib/domain/audit/record-audit";
import { logger } from "@/lib/foundation/log/logger";
import { stripe, viaStripe } from "@/lib/services/billing/stripe-client";

type ConnectRow = typeof stripeConnectAccounts.$inferSelect;

function toPublicConnect(row: ConnectRow | undefined) {
  return {
    connected: Boolean(row),
    stripe_account_id: row?.stripeAccountId ?? null,
    charges_enabled: row?.chargesEnabled ?? false,
    details_submitted: row?.detailsSubmitted ?? false,
    payouts_enabled: row?.payoutsEnabled ?? false,
  };
}

export async function connectRow(db: Db, accountId: string): Promise<ConnectRow | undefined> {
  const [row] = await db.select().from(stripeConnectAccounts).where(eq(stripeConnectAccounts.accountId, accountId));
  return row;
}

/**
 * The stored state; while the account cannot take charges yet it is also asked of
 * Stripe, so a studio back from onboarding sees it before account.updated arrives
 * (when Stripe cannot be reached, the stored state is shown).
 */
export async function getConnect(db: Db, accountId: string) {
  const row = await connectRow(db, accountId);
  if (row && !row.chargesEnabled) {
    const fresh = await stripe()
      .accounts.retrieve(row.stripeAccountId)
      .catch((err: Error) => logger().warn({ account: row.stripeAccountId }, `stripe connect: the account could not be read: ${err.message}`));
    if (fresh) {
      await applyAccountUpdated(db, fresh);
      return toPublicConnect(await connectRow(db, accountId));
    }
  }
  return toPublicConnect(row);
}

/**
 * Connects the studio's own Stripe account: creates it on the first call (Stripe's
 * idempotency key is the studio's id, so two concurrent first calls make one account),
 * then answers a fresh onboarding link each time (links expire within minutes).
 * Whether it can take payments comes later, from account.updated.
 */
export async function startConnect(db: Db, account: { id: string; email: string }, input: { type: "express" | "standard"; country?: string }) {
  let row = await connectRow(db, account.id);
  if (!row) {
    const created = await viaStripe("create the studio's Stripe account", () =>
      stripe().accounts.create(
        { type: input.type, email: account.email, ...(input.country ? { country: input.country } : {}), metadata: { account_id: account.id } },
        { idempotencyKey: `connect-account-${account.id}` },
      ),
    );
    await db
      .insert(stripeConnectAccounts)
      .values({ accountId: account.id, stripeAccountId: created.id, chargesEnabled: created.charges_enabled ?? false, detailsSubmitted: created.details_submitted ?? false, payoutsEnabled: created.payouts_enabled ?? false })
      .onConflictDoNothing();
    row = (await connectRow(db, account.id))!;
    await recordAudit(db, { accountId: account.id, action: "payments.stripe_connected", target: row.stripeAccountId, data: { type: input.type } });
  }
  const origin = appOrigin();
  const link = await viaStripe("open the onboarding page", () =>
    stripe().accountLinks.create({ account: row.stripeAccountId, type: "account_onboarding", refresh_url: `${origin}/settings?payments=refresh`, return_url: `${origin}/settings?payments=return` }),
  );
  return { ...toPublicConnect(row), onboarding_url: link.url };
}

/** account.updated: what the studio's account may do now. Unknown accounts are ignored. */
export async function applyAccountUpdated(db: Db, account: Stripe.Account): Promise<"recorded" | "ignored"> {
  const rows = await db
    .update(stripeConnectAccounts)
    .set({ chargesEnabled: account.charges_enabled ?? false, detailsSubmitted: account.details_submitted ?? false, payoutsEnabled: account.payouts_enabled ?? false, updatedAt: new Date() })
    .where(eq(stripeConnectAccounts.stripeAccountId, account.id))
    .returning({ id: stripeConnectAccounts.accountId });
  return rows.length ? "recorded" : "ignored";
}

/** The connected account a checkout is paid into, or null while the studio cannot take charges. */
export async function chargeableAccount(db: Db, accountId: string): Promise<string | null> {
  const row = await connectRow(db, accountId);
  return row?.chargesEnabled ? row.stripeAccountId : null;
}

/** 409 for a cart that costs something at a studio that cannot take card payments yet. */
export function cannotTakePayments(): never {
  throw new ApiError(409, "STUDIO_CANNOT_TAKE_PAYMENTS", "This studio has not finished setting up card payments yet. Please try again later.");
}
