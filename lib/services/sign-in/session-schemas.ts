import { z } from "zod";

export const sessionParams = z.object({ id: z.string().min(1).max(64) });
export const loginSessionResponse = z.object({
  id: z.string(),
  /** `studio`: a browser signed in to the studio; `api`: an access token from POST /v1/auth/token. */
  kind: z.enum(["studio", "api"]),
  device: z.string(),
  ip: z.string().nullable(),
  created_at: z.iso.datetime({ offset: true }),
  last_seen_at: z.iso.datetime({ offset: true }),
  /** The session this request was made with. */
  current: z.boolean(),
});
export const loginSessionsResponse = z.object({ data: z.array(loginSessionResponse) });
export const endedSessionsResponse = z.object({ ended: z.number().int().min(0) });
