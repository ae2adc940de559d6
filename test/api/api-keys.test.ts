import { describe, expect, it } from "vitest";
import * as keys from "@/app/v1/api-keys/route";
import * as key from "@/app/v1/api-keys/[id]/route";
import * as account from "@/app/v1/account/route";
import { call, testAccount } from "../http";

describe("API keys", () => {
  it("creates a key shown once, lists it without the secret, authenticates with it, and revokes it at once", async () => {
    const { token, account: acc } = await testAccount();
    const created = await call(keys, "POST", "/v1/api-keys", { token, body: { name: "Print shop" } });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ id: expect.stringMatching(/^key_/), name: "Print shop", key: expect.stringMatching(/^psk_live_/) });

    const list = await call(keys, "GET", "/v1/api-keys", { token });
    expect(list.status).toBe(200);
    expect(list.json.data).toHaveLength(1);
    expect(list.json.data[0]).not.toHaveProperty("key");
    expect(JSON.stringify(list.json)).not.toContain(created.json.key);
    expect(created.json.key.startsWith(list.json.data[0].prefix)).toBe(true);

    const me = await call(account, "GET", "/v1/account", { token: created.json.key });
    expect(me.status).toBe(200);
    expect(me.json.id).toBe(acc.id);

    const revoked = await call(key, "DELETE", `/v1/api-keys/${created.json.id}`, { token, params: { id: created.json.id } });
    expect(revoked.status).toBe(204);
    const after = await call(account, "GET", "/v1/account", { token: created.json.key });
    expect(after.status).toBe(401);
    expect((await call(keys, "GET", "/v1/api-keys", { token })).json.data).toHaveLength(0);
  });

  it("answers another account's key with 404 and leaves it working", async () => {
    const owner = await testAccount();
    const other = await testAccount();
    const created = await call(keys, "POST", "/v1/api-keys", { token: owner.token, body: { name: "mine" } });
    const res = await call(key, "DELETE", `/v1/api-keys/${created.json.id}`, { token: other.token, params: { id: created.json.id } });
    expect(res.status).toBe(404);
    expect((await call(account, "GET", "/v1/account", { token: created.json.key })).status).toBe(200);
    expect((await call(keys, "GET", "/v1/api-keys", { token: other.token })).json.data).toHaveLength(0);
  });

  it("answers revoking twice or an unknown id with 404", async () => {
    const { token } = await testAccount();
    const created = await call(keys, "POST", "/v1/api-keys", { token, body: { name: "once" } });
    await call(key, "DELETE", "/v1/api-keys/x", { token, params: { id: created.json.id } });
    expect((await call(key, "DELETE", "/v1/api-keys/x", { token, params: { id: created.json.id } })).status).toBe(404);
    expect((await call(key, "DELETE", "/v1/api-keys/x", { token, params: { id: "key_nope" } })).status).toBe(404);
  });

  it("validates the name and rejects unknown fields", async () => {
    const { token } = await testAccount();
    const empty = await call(keys, "POST", "/v1/api-keys", { token, body: { name: "  " } });
    expect(empty.status).toBe(400);
    expect(empty.json.details.fields[0].field).toBe("name");
    const extra = await call(keys, "POST", "/v1/api-keys", { token, body: { name: "ok", scope: "all" } });
    expect(extra.status).toBe(400);
    expect(extra.json.details.fields[0].field).toBe("scope");
    const wrongType = await call(keys, "POST", "/v1/api-keys", { token, body: { name: 42 } });
    expect(wrongType.status).toBe(400);
  });

  it("cannot be created or listed without credentials", async () => {
    expect((await call(keys, "POST", "/v1/api-keys", { body: { name: "x" } })).status).toBe(401);
    expect((await call(keys, "GET", "/v1/api-keys")).status).toBe(401);
  });
});
