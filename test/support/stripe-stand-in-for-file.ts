import { afterAll, beforeAll, beforeEach } from "vitest";
import { resetConfig } from "@/lib/foundation/config";
import { startStripeStandIn } from "./stripe-stand-in";

const SETTINGS = ["STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET", "STRIPE_API_URL"] as const;

/**
 * A Stripe stand-in for one test file, and the app's Stripe settings pointed at it
 * before each test (a test may unset them to see the server without Stripe).
 * Returns the running stand-in.
 */
export function stripeStandInForFile(webhookSecret: string) {
  let stand: Awaited<ReturnType<typeof startStripeStandIn>> | undefined;
  beforeAll(async () => {
    stand = await startStripeStandIn({ webhookSecret });
  });
  afterAll(async () => {
    await stand?.close();
    for (const k of SETTINGS) delete process.env[k];
    resetConfig();
  });
  beforeEach(() => {
    Object.assign(process.env, { STRIPE_SECRET_KEY: "sk_test_stand_in", STRIPE_WEBHOOK_SECRET: webhookSecret, STRIPE_API_URL: stand!.url });
    resetConfig();
  });
  return () => stand!;
}
