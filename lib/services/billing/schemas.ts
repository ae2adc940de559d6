import { z } from "zod";
import { checkoutStatusEnum } from "@/lib/foundation/db/schema";

export const packResponse = z.object({
  id: z.string(),
  tokens: z.number().int(),
  /** In the currency's minor unit (cents). */
  price: z.number().int(),
  currency: z.string(),
  price_per_1000_tokens: z.number().int(),
});
export const packListResponse = z.object({
  packs: z.array(packResponse),
  /** Premium by the month: its price (minor units), currency and the tokens each paid month brings. */
  premium: z.object({ monthly_price: z.number().int(), currency: z.string(), monthly_tokens: z.number().int() }),
  card_payments: z.boolean(),
});

/** A token pack (`pack`) or Premium (`plan: "premium"`): exactly one. */
export const checkoutBody = z
  .strictObject({
    pack: z.string({ error: "pack must be a pack id from GET /v1/billing/packs." }).min(1).max(40).optional(),
    plan: z.enum(["premium"], { error: 'plan must be "premium".' }).optional(),
    /** Keep the card for auto top-up (Checkout asks the customer's consent to later charges). */
    save_card: z.boolean().optional(),
  })
  .refine((b) => (b.pack === undefined) !== (b.plan === undefined), { path: ["pack"], message: 'Send either pack (a token pack id) or plan: "premium".' });
export const portalResponse = z.object({ portal_url: z.string() });
export const checkoutResponse = z.object({ checkout_url: z.string(), session_id: z.string() });

export const checkoutParams = z.strictObject({ sessionId: z.string().regex(/^cs_[A-Za-z0-9_]{1,250}$/, "sessionId must be a Checkout Session id (cs_…).") });
export const checkoutStatusResponse = z.object({
  session_id: z.string(),
  pack: z.string(),
  tokens: z.number().int(),
  amount: z.number().int(),
  currency: z.string(),
  status: z.enum(checkoutStatusEnum.enumValues),
  wallet_transaction_id: z.string().nullable(),
  balance: z.number().int(),
  created_at: z.string(),
  paid_at: z.string().nullable(),
});

export const receiptParams = z.strictObject({ transactionId: z.string().min(1).max(100) });
/** GET /v1/wallet/transactions/{transactionId}/receipt. */
export const receiptResponse = z.object({ transaction_id: z.string(), receipt_url: z.string() });

/** PUT /v1/billing/auto-top-up. */
export const autoTopUpBody = z.strictObject({
  enabled: z.boolean(),
  threshold: z.number().int().min(0).max(10_000_000),
  pack: z.string().min(1).max(40),
});
export const autoTopUpResponse = z.object({
  enabled: z.boolean(),
  threshold: z.number().int(),
  pack: z.string().nullable(),
  /** The card saved at a checkout, as Stripe describes it ("visa •••• 4242"). */
  card: z.object({ label: z.string() }).nullable(),
  /** A charge is under way. */
  in_flight: z.boolean(),
  /** Why auto top-up last turned itself off (a declined card, or one needing authentication). */
  last_failure: z.object({ message: z.string(), at: z.iso.datetime({ offset: true }) }).nullable(),
});
