import { RateLimiterRes } from "rate-limiter-flexible";
import { config } from "@/lib/foundation/config";
import { ApiError } from "../foundation/http/api-error";
import { resetLimiters, sharedLimiter } from "../foundation/http/limiter-store";

const WINDOW_SECONDS = 60;
/** The contract: wait at least 30 seconds after reaching the limit. */
const MIN_RETRY_AFTER_SECONDS = 30;

/** The per-minute request budget (per account, or per IP before authentication). */
const limiter = () => sharedLimiter("rl", config().RATE_LIMIT_PER_MINUTE, WINDOW_SECONDS);

export const resetRateLimiter = resetLimiters;

export type RateLimitState = { limit: number; remaining: number; resetSeconds: number };

/** Counts one request for `key`; throws the 429 envelope when the budget is spent. */
export async function consumeRateLimit(key: string): Promise<RateLimitState> {
  const limit = config().RATE_LIMIT_PER_MINUTE;
  try {
    const res = await (await limiter()).consume(key, 1);
    return { limit, remaining: res.remainingPoints, resetSeconds: Math.ceil(res.msBeforeNext / 1000) };
  } catch (err) {
    if (!(err instanceof RateLimiterRes)) throw err;
    const retryAfter = Math.max(MIN_RETRY_AFTER_SECONDS, Math.ceil(err.msBeforeNext / 1000));
    const state = { limit, remaining: 0, resetSeconds: retryAfter };
    throw new ApiError(
      429,
      "RATE_LIMITED",
      `Too many requests: the limit is ${limit} per minute. Retry after ${retryAfter} seconds.`,
      undefined,
      { retry_after: retryAfter },
      { "Retry-After": String(retryAfter), ...rateLimitHeaders(state) },
    );
  }
}

/** IETF draft RateLimit headers, sent on every /v1 response that was counted. */
export function rateLimitHeaders(s: RateLimitState): Record<string, string> {
  return {
    "RateLimit-Limit": String(s.limit),
    "RateLimit-Remaining": String(s.remaining),
    "RateLimit-Reset": String(s.resetSeconds),
    "RateLimit-Policy": `${s.limit};w=${WINDOW_SECONDS}`,
  };
}
