import { z } from "zod";

/** GET /v1/operator/outbox items (lib/mail/outbox.ts). */
export const outboxEntryResponse = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  links: z.array(z.string()),
  created_at: z.string(),
});
