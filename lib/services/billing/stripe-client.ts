import Stripe from "stripe";
import { config } from "@/lib/foundation/config";
import { ApiError } from "@/lib/foundation/http/api-error";

let cached: { key: string; url: string | undefined; client: Stripe } | undefined;

/** 503 when this server has no Stripe key: the embedded quick start sells nothing. */
export function billingNotConfigured() {
  return new ApiError(503, "BILLING_NOT_CONFIGURED", "Card payment is not set up on this server (STRIPE_SECRET_KEY is not set). Tokens can still be granted by its operator.");
}

/**
 * The Stripe SDK for this server's key. STRIPE_API_URL points it at another host
 * (the local stand-in the tests run); in production it is unset and the SDK calls
 * api.stripe.com. Network errors are retried by the SDK with idempotency keys.
 */
export function stripe(): Stripe {
  const { STRIPE_SECRET_KEY: key, STRIPE_API_URL: url } = config();
  if (!key) throw billingNotConfigured();
  if (cached && cached.key === key && cached.url === url) return cached.client;
  const target = url ? new URL(url) : undefined;
  const client = new Stripe(key, {
    maxNetworkRetries: 2,
    appInfo: { name: "print-studio" },
    ...(target ? { host: target.hostname, port: Number(target.port || (target.protocol === "https:" ? 443 : 80)), protocol: target.protocol.replace(":", "") as "http" | "https" } : {}),
  });
  cached = { key, url, client };
  return client;
}

/** The webhook signing secret, or the same 503 (no secret: no event can be trusted). */
export function webhookSecret(): string {
  const secret = config().STRIPE_WEBHOOK_SECRET;
  if (!secret || !config().STRIPE_SECRET_KEY) throw billingNotConfigured();
  return secret;
}

export const billingConfigured = () => Boolean(config().STRIPE_SECRET_KEY && config().STRIPE_WEBHOOK_SECRET);

/**
 * Runs a Stripe call; when Stripe refuses or cannot be reached, the client gets a 502
 * that says so (nothing was charged) instead of a 500, and the cause is logged.
 */
export async function viaStripe<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (!(err instanceof Stripe.errors.StripeError)) throw err;
    throw new ApiError(502, "PAYMENT_PROVIDER_ERROR", `Stripe could not ${what} (${err.type}: ${err.message}). Nothing was charged; try again in a moment.`);
  }
}
