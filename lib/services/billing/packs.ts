import { z } from "zod";
import { config } from "@/lib/foundation/config";
import { badRequest } from "@/lib/foundation/http/api-error";

/** A token pack as sold: the price is in the currency's minor unit (cents). */
export const tokenPack = z.strictObject({
  id: z.string().regex(/^[a-z0-9_-]{1,40}$/, "pack id: lowercase letters, digits, - and _"),
  tokens: z.number().int().positive(),
  price: z.number().int().positive(),
  currency: z.string().regex(/^[a-z]{3}$/, "currency: a lowercase ISO code such as usd"),
});
export type TokenPack = z.infer<typeof tokenPack>;

/**
 * Volume pricing: 1.0, 0.9 and 0.8 cents a token. A background removal (150 tokens)
 * costs $1.50 from the smallest pack and $1.20 from the largest.
 */
export const DEFAULT_PACKS: readonly TokenPack[] = [
  { id: "tokens-1000", tokens: 1_000, price: 1_000, currency: "usd" },
  { id: "tokens-5000", tokens: 5_000, price: 4_500, currency: "usd" },
  { id: "tokens-25000", tokens: 25_000, price: 20_000, currency: "usd" },
];

/** TOKEN_PACKS (JSON) or the defaults; a malformed setting fails loudly with the reason. */
export function tokenPacks(): readonly TokenPack[] {
  const raw = config().TOKEN_PACKS;
  if (!raw) return DEFAULT_PACKS;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new Error("TOKEN_PACKS is not valid JSON: expected [{ \"id\", \"tokens\", \"price\", \"currency\" }, …]");
  }
  const packs = z.array(tokenPack).min(1).safeParse(parsed);
  if (!packs.success) throw new Error(`TOKEN_PACKS: ${packs.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  return packs.data;
}

export function requirePack(id: string): TokenPack {
  const pack = tokenPacks().find((p) => p.id === id);
  if (!pack) throw badRequest("UNKNOWN_PACK", `No token pack "${id}": choose one of ${tokenPacks().map((p) => p.id).join(", ")} (GET /v1/billing/packs).`, { field: "pack" });
  return pack;
}

/** The public shape (GET /v1/billing/packs). */
export function toPublicPack(p: TokenPack) {
  return { id: p.id, tokens: p.tokens, price: p.price, currency: p.currency, price_per_1000_tokens: Math.round((p.price * 1000) / p.tokens) };
}

/** Premium as sold (PREMIUM_MONTHLY_PRICE, PREMIUM_CURRENCY, PREMIUM_MONTHLY_TOKENS). */
export function premiumOffer() {
  const c = config();
  return { monthly_price: c.PREMIUM_MONTHLY_PRICE, currency: c.PREMIUM_CURRENCY, monthly_tokens: c.PREMIUM_MONTHLY_TOKENS };
}
