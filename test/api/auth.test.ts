import { describe, expect, it } from "vitest";
import { SignJWT } from "jose";
import * as register from "@/app/v1/auth/register/route";
import * as token from "@/app/v1/auth/token/route";
import * as account from "@/app/v1/account/route";
import * as unknown from "@/app/v1/[[...path]]/route";
import { derivedKey } from "@/lib/foundation/secret";
import { call, testAccount } from "../http";
import { fieldErrorList } from "@/lib/client/field-errors";

const strong = "a sturdy pass phrase";

describe("POST /v1/auth/register", () => {
  it("creates an account with the free plan, its address not yet confirmed (the sign-up tokens come with the confirmation: email-verification.test.ts)", async () => {
    const res = await call(register, "POST", "/v1/auth/register", { body: { email: "New@Example.com", password: strong, name: "Ada" } });
    expect(res.status).toBe(201);
    expect(res.json.account).toEqual({ id: expect.stringMatching(/^acc_/), email: "new@example.com", name: "Ada", plan: "free", email_verified: false, hold: null });
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
  });

  it("refuses a duplicate email, whatever its case, with 409", async () => {
    await call(register, "POST", "/v1/auth/register", { body: { email: "dup@example.com", password: strong, name: "A" } });
    const res = await call(register, "POST", "/v1/auth/register", { body: { email: "DUP@example.com", password: strong, name: "B" } });
    expect(res.status).toBe(409);
    expect(res.json).toMatchObject({ error: "EMAIL_TAKEN", request_id: expect.any(String) });
  });

  it.each([
    ["short", "Use at least 10 characters."],
    ["aaaaaaaaaaaa", "Use more varied characters"],
    ["password123456", "too common"],
  ])("refuses the weak password %j with 400 naming the field", async (password, why) => {
    const res = await call(register, "POST", "/v1/auth/register", { body: { email: "weak@example.com", password, name: "W" } });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe("WEAK_PASSWORD");
    expect(res.json.details.fields[0].field).toBe("password");
    expect(res.json.message).toContain(why);
  });

  it("names every invalid, missing and unknown field", async () => {
    const res = await call(register, "POST", "/v1/auth/register", { body: { email: "nope", password: 12, emial: "typo@example.com" } });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe("VALIDATION_ERROR");
    const fields = fieldErrorList(res.json).map((f) => f.field).sort();
    expect(fields).toEqual(["email", "emial", "name", "password"]);
  });

  it("answers malformed JSON with 400, a wrong content type with 415, a huge body with 413", async () => {
    const bad = await call(register, "POST", "/v1/auth/register", { rawBody: "{not json", headers: { "content-type": "application/json" } });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toBe("INVALID_JSON");
    const form = await call(register, "POST", "/v1/auth/register", { rawBody: "email=a", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(form.status).toBe(415);
    const huge = await call(register, "POST", "/v1/auth/register", { body: { email: "x@example.com", password: strong, name: "x".repeat(2_000_000) } });
    expect(huge.status).toBe(413);
    expect(huge.json.error).toBe("PAYLOAD_TOO_LARGE");
  });

  it("answers an unsupported method with 405 and Allow", async () => {
    const res = await call(register, "GET", "/v1/auth/register");
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
    expect(res.json.error).toBe("METHOD_NOT_ALLOWED");
  });
});

describe("POST /v1/auth/token", () => {
  it("exchanges credentials for a Bearer JWT that works on /v1/account", async () => {
    const { email, password, account: acc } = await testAccount();
    const res = await call(token, "POST", "/v1/auth/token", { body: { email, password } });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ access_token: expect.any(String), token_type: "Bearer", expires_in: 3600 });
    const me = await call(account, "GET", "/v1/account", { token: res.json.access_token });
    expect(me.status).toBe(200);
    expect(me.json).toEqual({
      id: acc.id,
      email,
      name: acc.name,
      plan: "free",
      email_verified: true,
      hold: null,
      role: "owner",
      require_two_factor: false,
      member: { user_id: acc.id, name: acc.name, email, email_verified: true, two_factor_enabled: false },
    });
  });

  it("refuses a wrong password and an unknown email alike with 401", async () => {
    const { email } = await testAccount();
    const wrong = await call(token, "POST", "/v1/auth/token", { body: { email, password: "not the password" } });
    const unknownEmail = await call(token, "POST", "/v1/auth/token", { body: { email: "ghost@example.com", password: "not the password" } });
    expect(wrong.status).toBe(401);
    expect(unknownEmail.status).toBe(401);
    expect(wrong.json.error).toBe(unknownEmail.json.error);
  });

  it("locks an email after 10 wrong passwords", async () => {
    const { email, password } = await testAccount();
    for (let i = 0; i < 10; i++) await call(token, "POST", "/v1/auth/token", { body: { email, password: "wrong password" } });
    const res = await call(token, "POST", "/v1/auth/token", { body: { email, password } });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(30);
  });
});

describe("authentication on /v1", () => {
  it("answers no credentials with a JSON 401, never a redirect", async () => {
    const res = await call(account, "GET", "/v1/account");
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ error: "UNAUTHORIZED", request_id: expect.any(String) });
  });

  it("refuses forged, expired and malformed tokens", async () => {
    const { account: acc, token: good } = await testAccount();
    const expired = await new SignJWT({})
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(acc.id)
      .setIssuer("print-studio")
      .setAudience("print-studio/v1")
      .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 3600)
      .sign(derivedKey("access-token"));
    const forged = good.slice(0, -4) + (good.endsWith("AAAA") ? "BBBB" : "AAAA");
    for (const t of [expired, forged, "garbage", "psk_live_notarealkey"]) {
      const res = await call(account, "GET", "/v1/account", { token: t });
      expect(res.status, t).toBe(401);
    }
    const basic = await call(account, "GET", "/v1/account", { headers: { authorization: "Basic dXNlcjpwYXNz" } });
    expect(basic.status).toBe(401);
  });

  it("never accepts X-API-Key as client authentication", async () => {
    const { token: good } = await testAccount();
    const res = await call(account, "GET", "/v1/account", { headers: { "x-api-key": good } });
    expect(res.status).toBe(401);
    expect(res.json.message).toContain("X-API-Key is not accepted");
  });

  it("echoes a valid X-Request-Id and replaces an unsafe one", async () => {
    const ok = await call(account, "GET", "/v1/account", { headers: { "x-request-id": "client-123" } });
    expect(ok.headers.get("x-request-id")).toBe("client-123");
    expect(ok.json.request_id).toBe("client-123");
    const unsafe = await call(account, "GET", "/v1/account", { headers: { "x-request-id": "bad id\twith spaces" } });
    expect(unsafe.headers.get("x-request-id")).toMatch(/^req_/);
  });

  it("answers unknown /v1 paths with a JSON 404", async () => {
    const res = await call(unknown, "POST", "/v1/no/such/thing");
    expect(res.status).toBe(404);
    expect(res.json).toMatchObject({ error: "NOT_FOUND", request_id: expect.any(String) });
  });
});
