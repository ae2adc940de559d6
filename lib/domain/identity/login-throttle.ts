import { RateLimiterRes } from "rate-limiter-flexible";
import { ApiError } from "@/lib/foundation/http/api-error";
import { sharedLimiter } from "@/lib/foundation/http/limiter-store";

// Password guessing is slowed per email, on top of the per-IP request limit:
// 10 wrong passwords in 15 minutes lock that email's sign-in for the rest of the window,
// in the shared store when there is one (RATE_LIMIT_STORE), so every instance sees the lock.
const failures = () => sharedLimiter("login", 10, 15 * 60);

export async function assertLoginAllowed(email: string): Promise<void> {
  const res = await (await failures()).get(email.toLowerCase());
  if (res && res.consumedPoints >= 10) {
    const retryAfter = Math.max(30, Math.ceil(res.msBeforeNext / 1000));
    throw new ApiError(429, "TOO_MANY_LOGIN_ATTEMPTS", `Too many failed sign-ins for this email. Retry after ${retryAfter} seconds.`, undefined, { retry_after: retryAfter }, { "Retry-After": String(retryAfter) });
  }
}

export async function recordLoginFailure(email: string): Promise<void> {
  await (await failures()).penalty(email.toLowerCase(), 1).catch((e: unknown) => {
    if (!(e instanceof RateLimiterRes)) throw e;
  });
}
