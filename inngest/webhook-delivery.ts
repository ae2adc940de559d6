import { getDb } from "@/lib/foundation/db/client";
import { defineJob } from "@/lib/domain/jobs/define-job";
import { attemptDelivery } from "@/lib/domain/webhooks/deliver";
import { webhookDeliveryAttempt } from "@/lib/domain/jobs/events";

/**
 * One attempt of a webhook delivery (lib/domain/webhooks/deliver.ts). The retry
 * schedule over about a day is the deliveries' own: a failed attempt queues the
 * next as a delayed job, so each attempt is logged and scheduled the same way on
 * the embedded runner and on Inngest. The job's own retries only cover a crash
 * before the attempt was recorded.
 */
export const webhookDelivery = defineJob({
  id: "webhook-delivery",
  name: "Webhook delivery attempt",
  event: webhookDeliveryAttempt,
  retries: 2,
  timeoutMs: 5 * 60_000,
  concurrency: 4,
  handler: async ({ event, step }) => {
    const outcome = await step.run("attempt", async () => attemptDelivery(await getDb(), event.data));
    return { outcome };
  },
  // Nothing to undo: the delivery stays pending and the hourly sweep queues it again.
  onFailure: async () => {},
});
