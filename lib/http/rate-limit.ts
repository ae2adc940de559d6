import { RateLimiterRes } from "rate-limiter-flexible";
import { config } from "@/lib/foundation/config";
import { ApiError } from "../foundation/http/api-error";
import { resetLimiters, sharedLimiter } from "../foundation/http/limiter-store";

const WINDOW_SECONDS = 60;
/** The contract: wait at least 30 seconds after reaching the limit. */
const MIN_RETRY_AFTER_SECONDS = 30;

/**
 * Which per-minute budget a request spends: `api` (per account for tokens and keys, per IP before
 * authentication) or `session` (the studio's own pages, per person: RATE_LIMIT_SESSION_PER_MINUTE).
 */
export type RateLimitBudget = "api" | "session";

const BUDGETS: Record<RateLimitBudget, { prefix: string; perMinute: () => number }> = {
  api: { prefix: "rl", perMinute: () => config().RATE_LIMIT_PER_MINUTE },
  session: { prefix: "rl-session", perMinute: () => config().RATE_LIMIT_SESSION_PER_MINUTE },
};

export const resetRateLimiter = resetLimiters;

/** A caller of the account's routes: third parties (tokens, keys, Basic) share the account's API budget. */
type Member = { account: { id: string }; user: { id: string } | null; via: string };

/** A person on the studio's pages (session cookie) counts apart, per person and studio. */
export const memberRateLimitKey = (p: Member) => (p.via === "session" && p.user ? `page:${p.account.id}:${p.user.id}` : `acct:${p.account.id}`);
export const memberRateLimitBudget = (p: Member): RateLimitBudget => (p.via === "session" && p.user ? "session" : "api");

export type RateLimitState = { limit: number; remaining: number; resetSeconds: number };

/** Counts one request for `key`; throws the 429 envelope when the budget is spent. */
export async function consumeRateLimit(key: string, budget: RateLimitBudget = "api"): Promise<RateLimitState> {
  const { prefix, perMinute } = BUDGETS[budget];
  const limit = perMinute();
  try {
    const res = await (await sharedLimiter(prefix, limit, WINDOW_SECONDS)).consume(key, 1);
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
