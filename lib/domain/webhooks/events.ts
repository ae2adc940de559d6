/**
 * The events an endpoint can subscribe to. `data` of each is the object the GET
 * of that resource returns (see the emit calls beside each service's finish and
 * fail code). `webhook.test` is sent only on request ("send a test event").
 */
export const WEBHOOK_EVENT_TYPES = [
  "bg_removal.completed",
  "bg_removal.failed",
  "ai_fix.completed",
  "ai_fix.failed",
  "face_crop.completed",
  "face_crop.failed",
  "match_job.completed",
  "match_job.failed",
  "qr_sort.completed",
  "qr_sort.failed",
  "refund.created",
  "wallet.low",
  "billing.auto_top_up_failed",
  "order.paid",
  "order.shipped",
  "order.refunded",
  "order.refund_failed",
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
export const TEST_EVENT_TYPE = "webhook.test";
