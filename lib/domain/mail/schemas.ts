import { z } from "zod";
import { pageQuery } from "@/lib/foundation/http/pagination";

/** GET /v1/operator/outbox items (lib/domain/mail/outbox.ts). */
export const outboxEntryResponse = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  links: z.array(z.string()),
  created_at: z.string(),
});

export const mailStatuses = ["pending", "sending", "sent", "failed"] as const;

/** GET /v1/operator/mail: the outbox table, optionally one status. */
export const listMailQuery = pageQuery.extend({ status: z.enum(mailStatuses).optional() });
export const retryMailBody = z.strictObject({ id: z.string().startsWith("mail_").max(64) });

/** An outbox message as the operator sees it: where it stands, not its body (its links are credentials). */
export const mailMessageResponse = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  status: z.enum(mailStatuses),
  attempts: z.number().int(),
  next_attempt_at: z.string().nullable(),
  last_error: z.string().nullable(),
  sent_at: z.string().nullable(),
  account_id: z.string().nullable(),
  created_at: z.string(),
});
