import { z } from "zod";

const email = z.email("Enter a valid email address.").max(254);

export const registerBody = z.strictObject({
  email,
  password: z.string().min(1).max(200),
  name: z.string().trim().min(1, "Enter a name.").max(100),
});

export const tokenBody = z.strictObject({
  email,
  password: z.string().min(1).max(200),
});

export const grantBody = z.strictObject({
  email,
  tokens: z.number().int().min(1).max(10_000_000),
  reason: z.string().trim().min(1).max(500),
});

export const planBody = z.strictObject({
  email,
  plan: z.enum(["free", "premium"]),
});

export const releaseHoldBody = z.strictObject({
  email,
  reason: z.string().trim().min(1).max(500),
});

/** GET /v1/account (toPublicAccount). */
export const publicAccountResponse = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  plan: z.enum(["free", "premium"]),
  /** Set while a refunded or disputed payment's spent tokens are unsettled: billed operations answer 402 ACCOUNT_ON_HOLD. */
  hold: z.object({ reason: z.string(), since: z.string() }).nullable(),
});

/** POST /v1/auth/token. */
export const accessTokenResponse = z.object({ access_token: z.string(), token_type: z.literal("Bearer"), expires_in: z.number().int().positive() });
/** POST /v1/auth/register -> 201. */
export const registeredResponse = z.object({ account: publicAccountResponse });
