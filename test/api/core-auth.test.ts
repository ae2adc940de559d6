import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as productsRoute from "@/app/v1/products/route";
import * as projectsRoute from "@/app/v1/projects/route";
import * as tokenRoute from "@/app/v1/auth/token/route";
import * as keysRoute from "@/app/v1/api-keys/route";
import * as unauthTokenRoute from "@/app/v1/account/unauth-token/route";
import { createAccount } from "@/lib/domain/identity/create-account";
import { hashPassword } from "@/lib/domain/identity/password";
import { getDb } from "@/lib/foundation/db/client";
import { accounts } from "@/lib/foundation/db/schema";
import { call, testAccount } from "../http";
import { basicHeader, productBody } from "./core-fixtures";

const basic = (email: string, password: string) => ({ headers: { authorization: basicHeader(email, password) } });

// Open (and migrate) the database under the hook timeout, not the first test's.
beforeAll(async () => {
  await getDb();
});

describe("core API authentication: HTTP Basic and Bearer", () => {
  it("accepts the account's email and password as HTTP Basic for reads and writes", async () => {
    const { email, password, account } = await testAccount();
    const created = await call(productsRoute, "POST", "/v1/products", { ...basic(email, password), body: productBody({ name: "Basic made" }) });
    expect(created.status).toBe(201);
    const list = await call(productsRoute, "GET", "/v1/products", basic(email, password));
    expect(list.status).toBe(200);
    expect(list.json.data.map((p: { name: string }) => p.name)).toEqual(["Basic made"]);
    // Email is case-insensitive, as at sign-in; the account is the same.
    const upper = await call(unauthTokenRoute, "GET", "/v1/account/unauth-token", basic(email.toUpperCase(), password));
    expect(upper.status).toBe(200);
    const again = await call(productsRoute, "GET", "/v1/products", basic(email, password));
    expect(again.json.data[0].id).toBe(created.json.id);
    expect(account.id).toMatch(/^acc_/);
  });

  it("answers wrong, unknown and missing credentials with 401 and a Basic + Bearer challenge", async () => {
    const { email } = await testAccount();
    const cases = [
      { name: "wrong password", opts: basic(email, "not the password at all"), error: "INVALID_CREDENTIALS" },
      { name: "unknown email", opts: basic("nobody-here@example.com", "whatever password"), error: "INVALID_CREDENTIALS" },
      { name: "missing", opts: {}, error: "UNAUTHORIZED" },
      { name: "no colon", opts: { headers: { authorization: `Basic ${Buffer.from("just-a-user").toString("base64")}` } }, error: "UNAUTHORIZED" },
      { name: "not base64", opts: { headers: { authorization: "Basic ###" } }, error: "UNAUTHORIZED" },
      { name: "other scheme", opts: { headers: { authorization: "Digest username=x" } }, error: "UNAUTHORIZED" },
      { name: "bad bearer", opts: { token: "not-a-token" }, error: "UNAUTHORIZED" },
    ];
    for (const c of cases) {
      const res = await call(productsRoute, "GET", "/v1/products", c.opts);
      expect(res.status, c.name).toBe(401);
      expect(res.json.error, c.name).toBe(c.error);
      const challenge = res.headers.get("www-authenticate")!;
      expect(challenge, c.name).toContain('Basic realm="Print Studio API", charset="UTF-8"');
      expect(challenge, c.name).toContain('Bearer realm="v1"');
    }
  });

  it("handles passwords with colons and non-ASCII characters (RFC 7617: split at the first colon, UTF-8)", async () => {
    const db = await getDb();
    const email = `colon-${Date.now()}@example.com`;
    const password = "pä:ss:wörd mit Doppelpunkt";
    await createAccount(db, { email, password, name: "Colon", signupTokens: 0 });
    expect((await call(productsRoute, "GET", "/v1/products", basic(email, password))).status).toBe(200);
    expect((await call(productsRoute, "GET", "/v1/products", basic(email, "pä"))).status).toBe(401);
  });

  it("counts failed Basic attempts against the login throttle: 10 failures lock the email for Basic and for /v1/auth/token", async () => {
    const { email, password, token } = await testAccount();
    for (let i = 0; i < 10; i++) {
      expect((await call(productsRoute, "GET", "/v1/products", basic(email, `wrong password ${i}`))).status).toBe(401);
    }
    const locked = await call(productsRoute, "GET", "/v1/products", basic(email, password));
    expect(locked.status).toBe(429);
    expect(locked.json.error).toBe("TOO_MANY_LOGIN_ATTEMPTS");
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThanOrEqual(30);
    const signIn = await call(tokenRoute, "POST", "/v1/auth/token", { body: { email, password } });
    expect(signIn.status).toBe(429);
    // Bearer credentials are not affected: servers should prefer them to Basic.
    expect((await call(productsRoute, "GET", "/v1/products", { token })).status).toBe(200);
  });

  it("stops accepting cached Basic credentials as soon as the password changes", async () => {
    const { email, password, account } = await testAccount();
    expect((await call(productsRoute, "GET", "/v1/products", basic(email, password))).status).toBe(200);
    expect((await call(productsRoute, "GET", "/v1/products", basic(email, password))).status).toBe(200);
    const newPassword = "a brand new passphrase 42";
    const db = await getDb();
    await db.update(accounts).set({ passwordHash: await hashPassword(newPassword) }).where(eq(accounts.id, account.id));
    const old = await call(productsRoute, "GET", "/v1/products", basic(email, password));
    expect(old.status).toBe(401);
    expect((await call(productsRoute, "GET", "/v1/products", basic(email, newPassword))).status).toBe(200);
  });

  it("accepts the account's Bearer access token and API keys, and refuses X-API-Key", async () => {
    const { token } = await testAccount();
    expect((await call(projectsRoute, "GET", "/v1/projects", { token })).status).toBe(200);
    const key = await call(keysRoute, "POST", "/v1/api-keys", { token, body: { name: "core" } });
    expect((await call(productsRoute, "POST", "/v1/products", { token: key.json.key, body: productBody() })).status).toBe(201);
    const xKey = await call(productsRoute, "GET", "/v1/products", { headers: { "x-api-key": key.json.key } });
    expect(xKey.status).toBe(401);
  });
});
