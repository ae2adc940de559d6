import Redis from "ioredis";
import { RateLimiterDrizzle, RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from "rate-limiter-flexible";
import { config } from "@/lib/foundation/config";
import { getDb } from "@/lib/foundation/db/client";
import { rateLimits } from "@/lib/foundation/db/schema";

/**
 * Every counter that slows callers down (requests per minute, wrong passwords per
 * email, sign-ups per IP) lives in the store RATE_LIMIT_STORE names: memory for one
 * instance, PostgreSQL (the app's own database) or Redis when several instances
 * (or serverless functions) must share the counts. One limiter per `keyPrefix`,
 * built once per process.
 */
const holder = globalThis as unknown as { __printStudioLimiters?: Map<string, Promise<RateLimiterAbstract>>; __printStudioRedis?: Promise<Redis> };

export function sharedLimiter(keyPrefix: string, points: number, durationSeconds: number): Promise<RateLimiterAbstract> {
  const limiters = (holder.__printStudioLimiters ??= new Map());
  let limiter = limiters.get(keyPrefix);
  if (!limiter) {
    limiter = build({ keyPrefix, points, duration: durationSeconds });
    limiters.set(keyPrefix, limiter);
    limiter.catch(() => limiters.delete(keyPrefix)); // a failed build is retried on the next call
  }
  return limiter;
}

/** Tests: forget the limiters (as a new process would) so the next call reads the configuration again. */
export function resetLimiters(): void {
  holder.__printStudioLimiters = undefined;
  holder.__printStudioRedis = undefined;
}

async function build(base: { keyPrefix: string; points: number; duration: number }): Promise<RateLimiterAbstract> {
  const { RATE_LIMIT_STORE } = config();
  if (RATE_LIMIT_STORE === "redis") {
    // While Redis is unreachable the in-memory insurance limiter keeps limiting this instance rather than failing requests.
    return new RateLimiterRedis({ ...base, storeClient: await redis(), insuranceLimiter: new RateLimiterMemory(base) });
  }
  if (RATE_LIMIT_STORE === "postgres") return new RateLimiterDrizzle({ ...base, storeClient: await getDb(), schema: rateLimits });
  return new RateLimiterMemory(base);
}

function redis(): Promise<Redis> {
  holder.__printStudioRedis ??= (async () => {
    const { REDIS_URL } = config();
    if (!REDIS_URL) throw new Error("RATE_LIMIT_STORE=redis needs REDIS_URL");
    const client = new Redis(REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: true });
    await client.connect().catch((err: Error) => console.warn(`[rate-limit] Redis unavailable (${err.message}); limiting in memory until it returns`));
    return client;
  })();
  return holder.__printStudioRedis;
}
