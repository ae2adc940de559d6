import { RateLimiterRes } from "rate-limiter-flexible";
import { config } from "@/lib/foundation/config";
import { ApiError } from "@/lib/foundation/http/api-error";
import { sharedLimiter } from "@/lib/foundation/http/limiter-store";

// Sign-ups are cheap to script and each one is granted tokens: a tighter budget
// per IP than the general 120/minute. REGISTER_PER_HOUR tunes it.
const registerLimiter = () => sharedLimiter("register", config().REGISTER_PER_HOUR, 3600);

export async function assertRegistrationAllowed(ip: string): Promise<void> {
  try {
    await (await registerLimiter()).consume(ip, 1);
  } catch (err) {
    if (!(err instanceof RateLimiterRes)) throw err;
    const retryAfter = Math.max(30, Math.ceil(err.msBeforeNext / 1000));
    throw new ApiError(429, "RATE_LIMITED", `Too many sign-ups from this address. Retry after ${retryAfter} seconds.`, undefined, { retry_after: retryAfter }, { "Retry-After": String(retryAfter) });
  }
}
