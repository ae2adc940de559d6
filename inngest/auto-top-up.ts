import { getDb } from "@/lib/foundation/db/client";
import { defineJob } from "@/lib/domain/jobs/define-job";
import { autoTopUpRequested } from "@/lib/domain/jobs/events";
import { chargeAutoTopUp, failAutoTopUp } from "@/lib/services/billing/auto-top-up";

/**
 * Charges the saved card for an auto top-up a debit claimed. One step: the attempt
 * id is Stripe's idempotency key, so a retry after a lost answer is the same charge.
 * The tokens come with Stripe's payment_intent.succeeded webhook. When Stripe cannot
 * be reached through every retry, the claim is released (auto top-up stays on) so
 * the next debit tries again.
 */
export const autoTopUp = defineJob({
  id: "auto-top-up",
  name: "Auto top-up charge",
  event: autoTopUpRequested,
  retries: 3,
  timeoutMs: 5 * 60_000,
  concurrency: 2,
  handler: async ({ event, step }) => {
    const outcome = await step.run("charge-card", async () => chargeAutoTopUp(await getDb(), event.data.attemptId));
    return { outcome };
  },
  onFailure: async ({ event, error, step }) => {
    await step.run("release-claim", async () => failAutoTopUp(await getDb(), event.data.attemptId, `Stripe could not be reached: ${error.message}`, { disable: false }));
  },
});
