import { z } from "zod";

/** One failing input: its path ("name", "subjects.3.name", "file[]") and what is wrong with it. */
export const fieldErrorSchema = z.object({ field: z.string(), message: z.string() });

/**
 * An error's machine-readable specifics. Typed where every error agrees on the key
 * (validation errors' `in` and `fields`, the single `field` a conflict or missing
 * reference names); each error may add its own keys beside them.
 */
export const errorDetails = z
  .looseObject({
    in: z.string().optional().meta({ description: "Where the failing input was: body, query, params or header." }),
    fields: z.array(fieldErrorSchema).optional().meta({ description: "Every failing input of a 400, in the order found." }),
    field: z.string().optional().meta({ description: "The one input a conflict or a missing reference is about (e.g. SKU_TAKEN: sku)." }),
  })
  .meta({ description: "Machine-readable specifics; validation errors list `fields: [{ field, message }]` and say `in` (body, query, params, header)." });

/**
 * The one error body of every /v1 answer >= 400 (lib/http/error-response.ts).
 * Some errors add top-level fields (the 402's wallet figures, retry_after).
 */
export const errorEnvelope = z
  .looseObject({
    error: z.string().meta({ description: "Machine-readable code, e.g. VALIDATION_ERROR, NOT_FOUND, INSUFFICIENT_TOKENS." }),
    message: z.string().meta({ description: "What went wrong and what to do, for people." }),
    details: errorDetails.optional(),
    request_id: z.string().meta({ description: "Quote it when asking for help; also in the X-Request-Id header." }),
  })
  .meta({ example: { error: "NOT_FOUND", message: "Job not found.", request_id: "req_3f2a9c0d1e4b5a6978877665" } });

/** 402: the wallet is short (contract: balance, shortfall, top_up_url). */
export const insufficientTokensBody = errorEnvelope
  .extend({
    error: z.literal("INSUFFICIENT_TOKENS"),
    balance: z.number().int(),
    shortfall: z.number().int(),
    top_up_url: z.string(),
  })
  .meta({
    example: {
      error: "INSUFFICIENT_TOKENS",
      message: "This operation costs 5 tokens and the wallet holds 2: 3 more needed.",
      balance: 2,
      shortfall: 3,
      top_up_url: "https://studio.example.com/wallet/top-up",
      request_id: "req_3f2a9c0d1e4b5a6978877665",
    },
  });

/** 429: the per-minute budget is spent; also Retry-After and RateLimit-* headers. */
export const rateLimitedBody = errorEnvelope
  .extend({ error: z.string().meta({ description: "RATE_LIMITED, or TOO_MANY_LOGIN_ATTEMPTS on POST /v1/auth/token." }), retry_after: z.number().int() })
  .meta({ example: { error: "RATE_LIMITED", message: "Too many requests: the limit is 120 per minute. Retry after 30 seconds.", retry_after: 30, request_id: "req_3f2a9c0d1e4b5a6978877665" } });
