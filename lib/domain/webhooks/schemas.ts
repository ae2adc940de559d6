import { z } from "zod";
import { WEBHOOK_EVENT_TYPES } from "./events";

const ts = z.iso.datetime({ offset: true });

export const createEndpointBody = z.strictObject({
  url: z.string().trim().min(1, "Give the URL to POST events to.").max(2000),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)).min(1, "Choose at least one event.").max(WEBHOOK_EVENT_TYPES.length),
  description: z.string().trim().max(200).optional(),
});

/** PATCH: turn a disabled endpoint back on (or off), change its events. */
export const updateEndpointBody = z.strictObject({
  enabled: z.boolean().optional(),
  events: createEndpointBody.shape.events.optional(),
});

export const endpointParams = z.object({ id: z.string().min(1).max(64) });
export const deliveryParams = z.object({ id: z.string().min(1).max(64), deliveryId: z.string().min(1).max(64) });

export const endpointResponse = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string().nullable(),
  events: z.array(z.string()),
  enabled: z.boolean(),
  disabled_at: ts.nullable(),
  disabled_reason: z.string().nullable(),
  failed_deliveries_in_a_row: z.number().int(),
  created_at: ts,
});
/** Creation and rotation: the only answers that carry the secret. */
export const endpointWithSecretResponse = endpointResponse.extend({ secret: z.string() });

export const attemptResponse = z.object({
  attempt: z.number().int(),
  status_code: z.number().int().nullable(),
  duration_ms: z.number().int(),
  response_snippet: z.string().nullable(),
  error: z.string().nullable(),
  at: ts,
});

export const deliveryResponse = z.object({
  id: z.string(),
  endpoint_id: z.string(),
  event_type: z.string(),
  status: z.enum(["pending", "succeeded", "failed"]),
  attempts: z.array(attemptResponse),
  next_attempt_at: ts.nullable(),
  created_at: ts,
  payload: z.object({ type: z.string(), timestamp: z.string(), data: z.unknown() }),
});
