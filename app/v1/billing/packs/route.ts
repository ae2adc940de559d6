import { withAccount } from "@/lib/http/wrappers";
import { methods } from "@/lib/http/methods";
import { premiumOffer, tokenPacks, toPublicPack } from "@/lib/services/billing/packs";
import { billingConfigured } from "@/lib/services/billing/stripe-client";
import { packListResponse } from "@/lib/services/billing/schemas";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: withAccount({ doc: { summary: "Token packs for sale, with the price per 1,000 tokens; card_payments is false when this server has no Stripe key", response: packListResponse } }, async () =>
    Response.json({ packs: tokenPacks().map(toPublicPack), premium: premiumOffer(), card_payments: billingConfigured() }),
  ),
});
