import { webhookDeliveryAttempt } from "@/lib/domain/jobs/events";
import { attemptDelivery } from "@/lib/domain/webhooks/deliver";
import { deliveryAttemptJob } from "./delivery-attempt";

/**
 * One attempt of a webhook delivery (lib/domain/webhooks/deliver.ts). The retry
 * schedule over about a day is the deliveries' own (WEBHOOK_RETRY_SCHEDULE), so
 * each attempt is logged and scheduled the same way on both runtimes.
 */
export const webhookDelivery = deliveryAttemptJob({
  id: "webhook-delivery",
  name: "Webhook delivery attempt",
  event: webhookDeliveryAttempt,
  attempt: (db, data) => attemptDelivery(db, data),
});
