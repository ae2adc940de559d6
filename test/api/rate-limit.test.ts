import { afterEach, describe, expect, it } from "vitest";
import * as account from "@/app/v1/account/route";
import * as tokenRoute from "@/app/v1/auth/token/route";
import { encode } from "next-auth/jwt";
import { resetConfig } from "@/lib/foundation/config";
import { serverSecret } from "@/lib/foundation/secret";
import { resetRateLimiter } from "@/lib/http/rate-limit";
import { call, testAccount } from "../http";

function useStore(store: "memory" | "postgres" | "redis", limit = 5) {
  process.env.RATE_LIMIT_STORE = store;
  process.env.RATE_LIMIT_PER_MINUTE = String(limit);
  process.env.REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
  resetConfig();
  resetRateLimiter();
}

afterEach(() => {
  delete process.env.RATE_LIMIT_STORE;
  delete process.env.RATE_LIMIT_PER_MINUTE;
  delete process.env.RATE_LIMIT_SESSION_PER_MINUTE;
  resetConfig();
  resetRateLimiter();
});

describe("rate limit", () => {
  it("allows 120 requests a minute per account by default, then 429 with Retry-After >= 30", async () => {
    resetConfig();
    resetRateLimiter();
    const { token } = await testAccount();
    for (let i = 0; i < 120; i++) {
      const ok = await call(account, "GET", "/v1/account", { token });
      expect(ok.status).toBe(200);
      if (i === 0) {
        expect(ok.headers.get("ratelimit-limit")).toBe("120");
        expect(ok.headers.get("ratelimit-remaining")).toBe("119");
      }
    }
    const limited = await call(account, "GET", "/v1/account", { token });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(30);
    expect(limited.headers.get("ratelimit-remaining")).toBe("0");
    expect(limited.json).toMatchObject({ error: "RATE_LIMITED", retry_after: expect.any(Number) });
    expect(limited.json.retry_after).toBeGreaterThanOrEqual(30);
    // Another account is unaffected.
    const other = await testAccount();
    expect((await call(account, "GET", "/v1/account", { token: other.token })).status).toBe(200);
  });

  it("gives a person on the studio's pages a budget apart from the account's API budget", async () => {
    useStore("memory", 3);
    process.env.RATE_LIMIT_SESSION_PER_MINUTE = "5";
    resetConfig();
    const { token, account: acc } = await testAccount();
    const cookie = `next-auth.session-token=${await encode({ token: { sub: acc.id }, secret: serverSecret() })}`;
    // The page spends its own five (a picture-day upload is hundreds of requests from one person)...
    for (let i = 0; i < 5; i++) {
      const page = await call(account, "GET", "/v1/account", { headers: { cookie } });
      expect(page.status).toBe(200);
      expect(page.headers.get("ratelimit-limit")).toBe("5");
    }
    expect((await call(account, "GET", "/v1/account", { headers: { cookie } })).status).toBe(429);
    // ...and left the API's three to the studio's integrations untouched, and the other way round.
    for (let i = 0; i < 3; i++) expect((await call(account, "GET", "/v1/account", { token })).status).toBe(200);
    const api = await call(account, "GET", "/v1/account", { token });
    expect(api.status).toBe(429);
    expect(api.headers.get("ratelimit-limit")).toBe("3");
  });

  it("counts unauthenticated requests per IP", async () => {
    useStore("memory", 3);
    for (let i = 0; i < 3; i++) expect((await call(account, "GET", "/v1/account", { ip: "198.51.100.7" })).status).toBe(401);
    expect((await call(account, "GET", "/v1/account", { ip: "198.51.100.7" })).status).toBe(429);
    expect((await call(account, "GET", "/v1/account", { ip: "198.51.100.8" })).status).toBe(401);
  });

  it.each(["postgres", "redis"] as const)("shares counters through the %s store", async (store) => {
    useStore(store, 4);
    const { token, account: acc } = await testAccount();
    // A unique account id per run keeps Redis keys from colliding between runs.
    expect(acc.id).toMatch(/^acc_/);
    for (let i = 0; i < 4; i++) expect((await call(account, "GET", "/v1/account", { token })).status).toBe(200);
    // A second limiter instance (as another server process would have) sees the same count.
    resetRateLimiter();
    const limited = await call(account, "GET", "/v1/account", { token });
    expect(limited.status).toBe(429);
  });

  it.each(["postgres", "redis"] as const)("shares the wrong-password lock through the %s store", async (store) => {
    useStore(store, 100);
    const { email, password } = await testAccount();
    for (let i = 0; i < 10; i++) {
      expect((await call(tokenRoute, "POST", "/v1/auth/token", { body: { email, password: "wrong password" } })).status).toBe(401);
    }
    // Another instance (a fresh set of limiters) refuses even the right password.
    resetRateLimiter();
    const locked = await call(tokenRoute, "POST", "/v1/auth/token", { body: { email, password } });
    expect(locked.status).toBe(429);
    expect(locked.json.error).toBe("TOO_MANY_LOGIN_ATTEMPTS");
  });

  it("with the memory store the lock is per instance (the contrast to the shared stores above)", async () => {
    useStore("memory", 100);
    const { email, password } = await testAccount();
    for (let i = 0; i < 10; i++) await call(tokenRoute, "POST", "/v1/auth/token", { body: { email, password: "wrong password" } });
    expect((await call(tokenRoute, "POST", "/v1/auth/token", { body: { email, password } })).status).toBe(429);
    resetRateLimiter();
    expect((await call(tokenRoute, "POST", "/v1/auth/token", { body: { email, password } })).status).toBe(200);
  });
});
