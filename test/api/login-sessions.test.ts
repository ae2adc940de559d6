// A person's signed-in sessions: each sign-in is one, listed with its device; ending
// one refuses its token on the next request; "end the others" keeps this one.
import { describe, expect, it } from "vitest";
import * as tokenRoute from "@/app/v1/auth/token/route";
import * as accountRoute from "@/app/v1/account/route";
import * as sessionsRoute from "@/app/v1/account/sessions/route";
import * as sessionRoute from "@/app/v1/account/sessions/[id]/route";
import * as endOthersRoute from "@/app/v1/account/sessions/end-others/route";
import * as apiKeysRoute from "@/app/v1/api-keys/route";
import * as passwordRoute from "@/app/v1/account/password/route";
import { getDb } from "@/lib/foundation/db/client";
import { confirmPasswordReset } from "@/lib/services/sign-in/password-reset";
import { createAccountToken } from "@/lib/domain/identity/one-time-tokens";
import { call, testAccount } from "../http";

const signIn = async (email: string, password: string, userAgent: string) =>
  (await call(tokenRoute, "POST", "/v1/auth/token", { body: { email, password }, headers: { "user-agent": userAgent }, ip: "198.51.100.20" })).json.access_token as string;
const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
const CHROME_MAC = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36";

describe("login sessions", () => {
  it("lists each sign-in with its device; ending one refuses its token at once; the others keep working", async () => {
    const { email, password } = await testAccount();
    const laptop = await signIn(email, password, CHROME_MAC);
    const script = await signIn(email, password, FIREFOX);
    const list = await call(sessionsRoute, "GET", "/v1/account/sessions", { token: laptop });
    expect(list.status).toBe(200);
    expect(list.json.data.map((s: { device: string; current: boolean; kind: string; ip: string }) => [s.device, s.current, s.kind, s.ip]).sort()).toEqual([
      ["Chrome on macOS", true, "api", "198.51.100.20"],
      ["Firefox on Linux", false, "api", "198.51.100.20"],
    ]);
    const other = list.json.data.find((s: { current: boolean }) => !s.current);
    expect((await call(sessionRoute, "DELETE", `/v1/account/sessions/${other.id}`, { token: laptop, params: { id: other.id } })).status).toBe(204);
    const refused = await call(accountRoute, "GET", "/v1/account", { token: script });
    expect(refused.status).toBe(401);
    expect((await call(accountRoute, "GET", "/v1/account", { token: laptop })).status).toBe(200);
    // Ending it again, or a session that does not exist: 404.
    expect((await call(sessionRoute, "DELETE", `/v1/account/sessions/${other.id}`, { token: laptop, params: { id: other.id } })).status).toBe(404);
  });

  it("ends every other session and keeps this one; API keys are the studio's and keep working", async () => {
    const { email, password, token: legacy } = await testAccount();
    const key = (await call(apiKeysRoute, "POST", "/v1/api-keys", { token: legacy, body: { name: "lab" } })).json.key as string;
    const here = await signIn(email, password, CHROME_MAC);
    const a = await signIn(email, password, FIREFOX);
    const b = await signIn(email, password, FIREFOX);
    const ended = await call(endOthersRoute, "POST", "/v1/account/sessions/end-others", { token: here });
    expect(ended.json).toEqual({ ended: 2 });
    for (const t of [a, b]) expect((await call(accountRoute, "GET", "/v1/account", { token: t })).status).toBe(401);
    expect((await call(accountRoute, "GET", "/v1/account", { token: here })).status).toBe(200);
    expect((await call(accountRoute, "GET", "/v1/account", { token: key })).status).toBe(200);
    const left = await call(sessionsRoute, "GET", "/v1/account/sessions", { token: here });
    expect(left.json.data).toHaveLength(1);
    // An API key is not a person: it has no sessions of its own.
    const byKey = await call(sessionsRoute, "GET", "/v1/account/sessions", { token: key });
    expect([byKey.status, byKey.json.error]).toEqual([403, "PERSON_REQUIRED"]);
  });

  it("another person's session is a 404", async () => {
    const alice = await testAccount();
    const bob = await testAccount();
    const aliceToken = await signIn(alice.email, alice.password, FIREFOX);
    const id = (await call(sessionsRoute, "GET", "/v1/account/sessions", { token: aliceToken })).json.data[0].id;
    const res = await call(sessionRoute, "DELETE", `/v1/account/sessions/${id}`, { token: bob.token, params: { id } });
    expect([res.status, res.json.error]).toEqual([404, "NOT_FOUND"]);
    expect((await call(accountRoute, "GET", "/v1/account", { token: aliceToken })).status).toBe(200);
  });

  it("a new password (changed or reset) ends every earlier session: none of them is listed any more", async () => {
    const { email, password, account } = await testAccount();
    const laptop = await signIn(email, password, CHROME_MAC);
    await signIn(email, password, FIREFOX);
    const changed = await call(passwordRoute, "POST", "/v1/account/password", { token: laptop, body: { current_password: password, new_password: "a brand new pass phrase" } });
    expect(changed.status, changed.text).toBeLessThan(300);
    // The change answers a new access token (a new session of its own); the two from before are gone.
    const listed = await call(sessionsRoute, "GET", "/v1/account/sessions", { token: changed.json.access_token });
    expect(listed.json.data.map((s: { device: string; current: boolean }) => [s.device, s.current])).toEqual([["Unknown device", true]]);

    // The same after a reset by e-mail link.
    const db = await getDb();
    const link = await createAccountToken(db, { accountId: account.id, purpose: "password_reset", email });
    await confirmPasswordReset(db, link, "another brand new phrase");
    const after = await signIn(email, "another brand new phrase", CHROME_MAC);
    const left = await call(sessionsRoute, "GET", "/v1/account/sessions", { token: after });
    expect(left.json.data.map((s: { device: string; current: boolean }) => [s.device, s.current])).toEqual([["Chrome on macOS", true]]);
  });
});
