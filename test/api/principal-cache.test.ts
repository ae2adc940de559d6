import { afterAll, describe, expect, it } from "vitest";
import * as account from "@/app/v1/account/route";
import * as keys from "@/app/v1/api-keys/route";
import * as key from "@/app/v1/api-keys/[id]/route";
import * as plan from "@/app/v1/operator/plan/route";
import { resetConfig } from "@/lib/foundation/config";
import { issueAccessToken } from "@/lib/domain/identity/access-token";
import { call, testAccount } from "../http";

// The authentication path caches verified tokens and account rows
// (lib/domain/identity/principal-cache.ts). What it must never do: serve a plan this
// process changed, keep a revoked API key working, or outlive a token's expiry.
const OPERATOR = "operator-token-0123456789abcdef";
process.env.OPERATOR_TOKEN = OPERATOR;
resetConfig();
afterAll(() => {
  delete process.env.OPERATOR_TOKEN;
  delete process.env.ACCESS_TOKEN_TTL_SECONDS;
  resetConfig();
});

describe("authentication caches", () => {
  it("a plan change is seen on the very next request", async () => {
    const { token, email } = await testAccount();
    expect((await call(account, "GET", "/v1/account", { token })).json.plan).toBe("free");
    expect((await call(plan, "PUT", "/v1/operator/plan", { token: OPERATOR, body: { email, plan: "premium" } })).status).toBe(200);
    expect((await call(account, "GET", "/v1/account", { token })).json.plan).toBe("premium");
  });

  it("a revoked API key fails on the next request although its account is cached", async () => {
    const { token } = await testAccount();
    const created = await call(keys, "POST", "/v1/api-keys", { token, body: { name: "ci" } });
    expect((await call(account, "GET", "/v1/account", { token: created.json.key })).status).toBe(200);
    expect((await call(key, "DELETE", `/v1/api-keys/${created.json.id}`, { token, params: { id: created.json.id } })).status).toBe(204);
    expect((await call(account, "GET", "/v1/account", { token: created.json.key })).status).toBe(401);
    expect((await call(account, "GET", "/v1/account", { token })).status).toBe(200);
  });

  it("a token accepted (and cached) stops working when it expires", async () => {
    const { account: acc } = await testAccount();
    process.env.ACCESS_TOKEN_TTL_SECONDS = "1";
    resetConfig();
    const { token } = await issueAccessToken(acc);
    expect((await call(account, "GET", "/v1/account", { token })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 2_100)); // exp has second resolution
    expect((await call(account, "GET", "/v1/account", { token })).status).toBe(401);
  });
});
