import { afterEach, beforeAll, describe, expect, it } from "vitest";
import * as bgRemove from "@/app/v1/services/bg-remove/route";
import * as wallet from "@/app/v1/wallet/route";
import * as unauthToken from "@/app/v1/account/unauth-token/route";
import { resetConfig } from "@/lib/foundation/config";
import { getDb } from "@/lib/foundation/db/client";
import { call, testAccount } from "../http";

// Contract 7: a short balance is `402 { error: "INSUFFICIENT_TOKENS", balance,
// shortfall, top_up_url: <URL> }`. README: without APP_URL, links follow the
// request's origin. This file runs without APP_URL (the test setup sets one).
const SETUP_APP_URL = process.env.APP_URL;
delete process.env.APP_URL;
resetConfig();

beforeAll(async () => {
  await getDb();
});
afterEach(() => {
  delete process.env.APP_URL;
  resetConfig();
});

/** POST /v1/services/bg-remove as a client on `origin` sends it. */
async function createJobAt(origin: string, token: string) {
  const req = new Request(`${origin}/v1/services/bg-remove`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "x-forwarded-for": "203.0.113.7" },
    // A public address literal: passes the request-time URL check without DNS; the 402 comes first.
    body: JSON.stringify({ image_url: "https://93.184.215.14/photo.png" }),
  });
  const res = await bgRemove.POST(req, { params: Promise.resolve({}) });
  return { status: res.status, json: await res.json() };
}

describe("402 INSUFFICIENT_TOKENS top_up_url", () => {
  it("points at the origin the client called when APP_URL is unset", async () => {
    const { token } = await testAccount({ tokens: 100 });
    const res = await createJobAt("https://studio.example.com", token);
    expect(res.status).toBe(402);
    expect(res.json).toMatchObject({ error: "INSUFFICIENT_TOKENS", balance: 100, shortfall: 50, top_up_url: "https://studio.example.com/wallet/top-up" });
  });

  it("uses APP_URL when it is set (behind a proxy the request's origin is an internal address)", async () => {
    process.env.APP_URL = SETUP_APP_URL ?? "http://localhost:3000";
    resetConfig();
    const { token } = await testAccount({ tokens: 100 });
    const res = await createJobAt("http://10.0.0.5:3000", token);
    expect(res.status).toBe(402);
    expect(res.json.top_up_url).toBe(`${process.env.APP_URL}/wallet/top-up`);
  });
});

describe("GET /v1/wallet with the storefront's unauth token", () => {
  // Contract 5: the unauth token reaches only public-data endpoints. Outside the
  // core API it is no credential at all (docs/api.md): 401 with a Bearer challenge.
  it("is a 401 as without credentials, and shows no balance", async () => {
    const { token } = await testAccount({ tokens: 100 });
    const unauth = (await call(unauthToken, "GET", "/v1/account/unauth-token", { token })).json.token as string;
    const res = await call(wallet, "GET", "/v1/wallet", { headers: { "x-service-unauth-token": unauth } });
    expect(res.status).toBe(401);
    expect(res.json.error).toBe("UNAUTHORIZED");
    expect(res.json).not.toHaveProperty("balance");
    expect(res.headers.get("www-authenticate")).toBe('Bearer realm="v1"');
  });
});
