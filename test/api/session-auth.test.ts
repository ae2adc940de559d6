import { describe, expect, it } from "vitest";
import { encode } from "next-auth/jwt";
import * as account from "@/app/v1/account/route";
import * as keys from "@/app/v1/api-keys/route";
import { serverSecret } from "@/lib/foundation/secret";
import { call, testAccount } from "../http";

async function sessionCookie(accountId: string) {
  const token = await encode({ token: { sub: accountId }, secret: serverSecret() });
  return `next-auth.session-token=${token}`;
}

describe("studio session cookie on /v1", () => {
  it("authenticates reads", async () => {
    const { account: acc } = await testAccount();
    const res = await call(account, "GET", "/v1/account", { headers: { cookie: await sessionCookie(acc.id) } });
    expect(res.status).toBe(200);
    expect(res.json.id).toBe(acc.id);
  });

  it("accepts writes from the studio's own origin and refuses cross-site ones", async () => {
    const { account: acc } = await testAccount();
    const cookie = await sessionCookie(acc.id);
    const same = await call(keys, "POST", "/v1/api-keys", { body: { name: "ok" }, headers: { cookie, "sec-fetch-site": "same-origin" } });
    expect(same.status).toBe(201);
    const sameByOrigin = await call(keys, "POST", "/v1/api-keys", { body: { name: "ok2" }, headers: { cookie, origin: "http://localhost:3000", host: "localhost:3000" } });
    expect(sameByOrigin.status).toBe(201);
    const cross = await call(keys, "POST", "/v1/api-keys", { body: { name: "evil" }, headers: { cookie, origin: "https://evil.example", host: "localhost:3000", "sec-fetch-site": "cross-site" } });
    expect(cross.status).toBe(403);
    expect(cross.json.error).toBe("CROSS_SITE_REQUEST");
    const list = await call(keys, "GET", "/v1/api-keys", { headers: { cookie } });
    expect(list.json.data.map((k: any) => k.name).sort()).toEqual(["ok", "ok2"]);
  });

  it("refuses a forged or foreign-secret cookie", async () => {
    const { account: acc } = await testAccount();
    const forged = await encode({ token: { sub: acc.id }, secret: "some-other-secret-some-other-secret-0000" });
    const res = await call(account, "GET", "/v1/account", { headers: { cookie: `next-auth.session-token=${forged}` } });
    expect(res.status).toBe(401);
  });

  it("lets an explicit Bearer header win over a cookie", async () => {
    const a = await testAccount();
    const b = await testAccount();
    const res = await call(account, "GET", "/v1/account", { token: b.token, headers: { cookie: await sessionCookie(a.account.id) } });
    expect(res.json.id).toBe(b.account.id);
  });
});
