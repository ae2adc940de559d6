import { RateLimiterRes } from "rate-limiter-flexible";
import { ApiError } from "@/lib/foundation/http/api-error";
import { sharedLimiter } from "@/lib/foundation/http/limiter-store";

// Guessing codes is slowed twice, in the shared limiter store (RATE_LIMIT_STORE):
// wrong codes per IP (20 in 15 minutes lock that address out of code entry for
// the rest of the window), and entries of one code, right or wrong (30 an hour),
// so a code read off a card cannot be hammered from many addresses. The lock
// answers the same 429 whether or not the code exists.
export const WRONG_CODES_PER_IP = 20;
const IP_WINDOW_SECONDS = 15 * 60;
export const ENTRIES_PER_CODE = 30;
const CODE_WINDOW_SECONDS = 3600;

const wrongByIp = () => sharedLimiter("gallery-code-ip", WRONG_CODES_PER_IP, IP_WINDOW_SECONDS);
const byCode = () => sharedLimiter("gallery-code", ENTRIES_PER_CODE, CODE_WINDOW_SECONDS);

function tooMany(msBeforeNext: number): ApiError {
  const retryAfter = Math.max(30, Math.ceil(msBeforeNext / 1000));
  return new ApiError(429, "TOO_MANY_CODE_ATTEMPTS", `Too many access code attempts. Retry after ${retryAfter} seconds.`, undefined, { retry_after: retryAfter }, { "Retry-After": String(retryAfter) });
}

/** Throws 429 when this address has spent its wrong codes, or this code its entries (and counts this entry). */
export async function assertCodeAttemptAllowed(ip: string, codeKey: string): Promise<void> {
  const held = await (await wrongByIp()).get(ip);
  if (held && held.consumedPoints >= WRONG_CODES_PER_IP) throw tooMany(held.msBeforeNext);
  try {
    await (await byCode()).consume(codeKey, 1);
  } catch (err) {
    if (err instanceof RateLimiterRes) throw tooMany(err.msBeforeNext);
    throw err;
  }
}

export async function recordWrongCode(ip: string): Promise<void> {
  await (await wrongByIp()).penalty(ip, 1).catch((e: unknown) => {
    if (!(e instanceof RateLimiterRes)) throw e;
  });
}
