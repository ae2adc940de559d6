import { RateLimiterRes } from "rate-limiter-flexible";
import { ApiError } from "@/lib/foundation/http/api-error";
import { sharedLimiter } from "@/lib/foundation/http/limiter-store";

// Emails we send on request (reset, verification) can be used to flood a mailbox or
// to probe: per recipient 5 an hour, per client IP 30 an hour, in the shared store.
const perEmail = () => sharedLimiter("mail-email", 5, 3600);
const perIp = () => sharedLimiter("mail-ip", 30, 3600);

/** Per IP: a 429 (says nothing about any address). */
export async function assertMailRequestAllowed(ip: string): Promise<void> {
  try {
    await (await perIp()).consume(ip, 1);
  } catch (err) {
    if (!(err instanceof RateLimiterRes)) throw err;
    const retryAfter = Math.max(30, Math.ceil(err.msBeforeNext / 1000));
    throw new ApiError(429, "RATE_LIMITED", `Too many email requests from this address. Retry after ${retryAfter} seconds.`, undefined, { retry_after: retryAfter }, { "Retry-After": String(retryAfter) });
  }
}

/** Per recipient: false once the address has had its share this hour (the caller then quietly sends nothing). */
export async function mayMail(email: string): Promise<boolean> {
  try {
    await (await perEmail()).consume(email.toLowerCase(), 1);
    return true;
  } catch (err) {
    if (!(err instanceof RateLimiterRes)) throw err;
    return false;
  }
}
