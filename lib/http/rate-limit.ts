import Redis from "ioredis";
import {
  RateLimiterDrizzle,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from "rate-limiter-flexible";
import { config } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { rateLimits } from "@/lib/db/schema";
import { ApiError } from "./api-error";

const WINDOW_SECONDS = 60;
/** The contract: wait at least 30 seconds after reaching the limit. */
const MIN_RETRY_AFTER_SECONDS = 30;

const holder = globalThis as unknown as { __printStudioLimiter?: Promise<RateLimiterAbstract> };

/** The store is chosen once per process: memory, or shared (PostgreSQL / Redis) for several instances. */
function limiter(): Promise<RateLimiterAbstract> {
  holder.__printStudioLimiter ??= (async () => {
    const { RATE_LIMIT_STORE, RATE_LIMIT_PER_MINUTE: points, REDIS_URL } = config();
    const base = { points, duration: WINDOW_SECONDS, keyPrefix: "rl" };
    if (RATE_LIMIT_STORE === "redis") {
      if (!REDIS_URL) throw new Error("RATE_LIMIT_STORE=redis needs REDIS_URL");
      const client = new Redis(REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: true });
      // Connect before the first request; while Redis is unreachable the in-memory
      // insurance limiter keeps limiting this instance rather than failing requests.
      await client.connect().catch((err: Error) => console.warn(`[rate-limit] Redis unavailable (${err.message}); limiting in memory until it returns`));
      return new RateLimiterRedis({ ...base, storeClient: client, insuranceLimiter: new RateLimiterMemory(base) });
    }
    if (RATE_LIMIT_STORE === "postgres") {
      return new RateLimiterDrizzle({ ...base, storeClient: await getDb(), schema: rateLimits });
    }
    return new RateLimiterMemory(base);
  })();
  return holder.__printStudioLimiter;
}

export function resetRateLimiter(): void {
  holder.__printStudioLimiter = undefined;
}

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
