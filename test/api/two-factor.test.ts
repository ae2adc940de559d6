// Two-factor sign-in (TOTP with recovery codes) for a person's login, and the
// studio setting that requires it of owners and admins. Codes are computed by
// test/support/totp.ts (RFC 6238 written out), the emails arrive at a local SMTP server.
import { describe, expect, it } from "vitest";
import * as tokenRoute from "@/app/v1/auth/token/route";
import * as accountRoute from "@/app/v1/account/route";
import * as profileRoute from "@/app/v1/account/profile/route";
import * as twoFactorRoute from "@/app/v1/account/two-factor/route";
import * as confirmRoute from "@/app/v1/account/two-factor/confirm/route";
import * as disableRoute from "@/app/v1/account/two-factor/disable/route";
import * as recoveryRoute from "@/app/v1/account/two-factor/recovery-codes/route";
import * as requirementRoute from "@/app/v1/account/two-factor-requirement/route";
import * as invitationsRoute from "@/app/v1/invitations/route";
import * as acceptRoute from "@/app/v1/invitations/accept/route";
import * as membersRoute from "@/app/v1/members/route";
import * as agenciesRoute from "@/app/v1/services/studio/agencies/route";
import * as auditRoute from "@/app/v1/audit-log/route";
import * as apiKeysRoute from "@/app/v1/api-keys/route";
import { call, testAccount } from "../http";
import { smtpServerForFile, tokenOf } from "../support/smtp-test-server";
import { secretOf, totpCode } from "../support/totp";

const smtp = smtpServerForFile();
const tokenFor = (body: Record<string, string>) => call(tokenRoute, "POST", "/v1/auth/token", { body });

/** Turns two-factor on for the account behind `token`; the code used is this step's. */
async function turnOn(token: string, password: string) {
  const begun = await call(twoFactorRoute, "POST", "/v1/account/two-factor", { token, body: { current_password: password } });
  expect(begun.status, begun.text).toBe(200);
  const secret = secretOf(begun.json.otpauth_uri);
  const on = await call(confirmRoute, "POST", "/v1/account/two-factor/confirm", { token, body: { code: totpCode(secret) } });
  expect(on.status, on.text).toBe(200);
  return { secret, recoveryCodes: on.json.recovery_codes as string[] };
}

describe("two-factor sign-in", () => {
  it("turns on with a scanned secret and a first code; sign-in then needs a code, each code works once", async () => {
    const { email, password, token } = await testAccount();
    const wrongPassword = await call(twoFactorRoute, "POST", "/v1/account/two-factor", { token, body: { current_password: "not it" } });
    expect([wrongPassword.status, wrongPassword.json.error, wrongPassword.json.details.fields[0].field]).toEqual([400, "WRONG_PASSWORD", "current_password"]);

    const begun = await call(twoFactorRoute, "POST", "/v1/account/two-factor", { token, body: { current_password: password } });
    expect(begun.json.otpauth_uri).toMatch(/^otpauth:\/\/totp\/Print%20Studio:.+\?.*secret=[A-Z2-7]+/);
    expect(begun.json.secret).toBe(secretOf(begun.json.otpauth_uri));
    expect(Buffer.from(begun.json.qr_code.split(",")[1], "base64").toString()).toContain("<svg");
    // Nothing changes until a code proves the app has the secret.
    expect((await tokenFor({ email, password })).status).toBe(200);
    const wrong = await call(confirmRoute, "POST", "/v1/account/two-factor/confirm", { token, body: { code: "000000" } });
    expect([wrong.status, wrong.json.error, wrong.json.details.fields[0].field]).toEqual([400, "INVALID_TWO_FACTOR_CODE", "code"]);

    const secret = begun.json.secret as string;
    // The code sent, kept: computed again later it may be the next 30 s step's (a slow machine), which is not spent.
    const setupCode = totpCode(secret);
    const on = await call(confirmRoute, "POST", "/v1/account/two-factor/confirm", { token, body: { code: setupCode } });
    expect(on.status, on.text).toBe(200);
    expect(on.json.recovery_codes).toHaveLength(10);
    expect(new Set(on.json.recovery_codes).size).toBe(10);
    expect((await smtp().waitFor(email, /Two-factor sign-in is on/)).text).toContain("recovery codes");

    const noCode = await tokenFor({ email, password });
    expect([noCode.status, noCode.json.error]).toEqual([401, "TWO_FACTOR_REQUIRED"]);
    const badCode = await tokenFor({ email, password, code: "123456" });
    expect([badCode.status, badCode.json.error]).toEqual([401, "INVALID_TWO_FACTOR_CODE"]);
    // The code of the step used to turn it on is spent; the next step's (the phone a little ahead) works, once.
    const replayOfSetup = await tokenFor({ email, password, code: setupCode });
    expect(replayOfSetup.status).toBe(401);
    const next = totpCode(secret, 1);
    expect((await tokenFor({ email, password, code: next })).status).toBe(200);
    expect((await tokenFor({ email, password, code: next })).status).toBe(401);
    // A wrong password with a right code says nothing about the code.
    const wrongPass = await tokenFor({ email, password: "nope", code: totpCode(secret, 1) });
    expect([wrongPass.status, wrongPass.json.error]).toEqual([401, "INVALID_CREDENTIALS"]);

    const status = await call(twoFactorRoute, "GET", "/v1/account/two-factor", { token });
    expect(status.json).toMatchObject({ enabled: true, recovery_codes_left: 10, required_by: [] });
  });

  it("a recovery code signs in once, in any case or spacing, and the person is told; new codes retire the old", async () => {
    const { email, password, token } = await testAccount();
    const { recoveryCodes } = await turnOn(token, password);
    const typed = ` ${recoveryCodes[0]!.toLowerCase().replace("-", " ")} `;
    expect((await tokenFor({ email, password, code: typed })).status).toBe(200);
    expect((await tokenFor({ email, password, code: recoveryCodes[0]! })).status).toBe(401);
    expect((await smtp().waitFor(email, /recovery code was used/)).text).toContain("9 unused codes left");
    // Another login's code is no code here.
    const other = await testAccount();
    const otherCodes = (await turnOn(other.token, other.password)).recoveryCodes;
    expect((await tokenFor({ email, password, code: otherCodes[0]! })).status).toBe(401);

    const renewed = await call(recoveryRoute, "POST", "/v1/account/two-factor/recovery-codes", { token, body: { current_password: password } });
    expect(renewed.status, renewed.text).toBe(200);
    expect((await tokenFor({ email, password, code: recoveryCodes[1]! })).status).toBe(401);
    expect((await tokenFor({ email, password, code: renewed.json.recovery_codes[0] })).status).toBe(200);
  });

  it("turning it off needs the password and a code; sign-in is password-only again; the audit log has it all", async () => {
    const { account, email, password, token } = await testAccount();
    const { secret, recoveryCodes } = await turnOn(token, password);
    const noCode = await call(disableRoute, "POST", "/v1/account/two-factor/disable", { token, body: { current_password: password, code: "111111" } });
    expect([noCode.status, noCode.json.error]).toEqual([400, "INVALID_TWO_FACTOR_CODE"]);
    const noPass = await call(disableRoute, "POST", "/v1/account/two-factor/disable", { token, body: { current_password: "x", code: totpCode(secret, 1) } });
    expect([noPass.status, noPass.json.error]).toEqual([400, "WRONG_PASSWORD"]);
    const off = await call(disableRoute, "POST", "/v1/account/two-factor/disable", { token, body: { current_password: password, code: recoveryCodes[3]! } });
    expect([off.status, off.json]).toEqual([200, { enabled: false }]);
    await smtp().waitFor(email, /Two-factor sign-in is off/);
    expect((await tokenFor({ email, password })).status).toBe(200);

    await tokenFor({ email, password: "wrong" });
    const log = await call(auditRoute, "GET", "/v1/audit-log?limit=50", { token });
    const actions = log.json.data.map((e: { action: string }) => e.action);
    expect(actions).toEqual(expect.arrayContaining(["account.two_factor_enabled", "account.two_factor_disabled", "auth.sign_in", "auth.sign_in_failed"]));
    expect(log.json.data.every((e: { data: Record<string, unknown> }) => !JSON.stringify(e.data).includes(secret))).toBe(true);
    expect(account.id).toBeTruthy();
  });

  it("an API key cannot turn a person's two-factor on or off", async () => {
    const { token } = await testAccount();
    const key = (await call(apiKeysRoute, "POST", "/v1/api-keys", { token, body: { name: "lab" } })).json.key as string;
    const res = await call(twoFactorRoute, "POST", "/v1/account/two-factor", { token: key, body: { current_password: "x" } });
    expect([res.status, res.json.error]).toEqual([403, "PERSON_REQUIRED"]);
  });

  it("bad input names the field", async () => {
    const { token } = await testAccount();
    const res = await call(confirmRoute, "POST", "/v1/account/two-factor/confirm", { token, body: { code: 123456 } });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.json.details)).toContain("code");
    const extra = await call(twoFactorRoute, "POST", "/v1/account/two-factor", { token, body: { current_password: "x", secret: "MINE" } });
    expect(extra.status).toBe(400);
    expect(JSON.stringify(extra.json.details)).toContain("secret");
  });
});

describe("a studio that requires two-factor of owners and admins", () => {
  it("needs the owner's own first, shuts out an admin without it (not a photographer) until they turn it on", async () => {
    const owner = await testAccount();
    const refused = await call(requirementRoute, "PUT", "/v1/account/two-factor-requirement", { token: owner.token, body: { required: true } });
    expect([refused.status, refused.json.error]).toEqual([409, "TWO_FACTOR_NOT_ON"]);
    const ownerFactor = await turnOn(owner.token, owner.password);

    const join = async (role: "admin" | "photographer") => {
      const email = `${role}-${Math.random().toString(36).slice(2, 8)}@example.com`;
      expect((await call(invitationsRoute, "POST", "/v1/invitations", { token: owner.token, body: { email, role } })).status).toBe(201);
      const link = (await smtp().waitFor(email, /Join /)).links.find((l) => l.includes("/invite?token="))!;
      const password = "a long enough pass phrase";
      expect((await call(acceptRoute, "POST", "/v1/invitations/accept", { body: { token: tokenOf(link), name: `Sam ${role}`, password } })).status).toBe(200);
      const token = (await tokenFor({ email, password })).json.access_token as string;
      return { email, password, token, as: { "x-studio-id": owner.account.id } };
    };
    const admin = await join("admin");
    const photographer = await join("photographer");

    const on = await call(requirementRoute, "PUT", "/v1/account/two-factor-requirement", { token: owner.token, body: { required: true } });
    expect(on.status, on.text).toBe(200);
    expect(on.json.members_without_two_factor.map((m: { email: string; role: string }) => [m.email, m.role])).toEqual([[admin.email, "admin"]]);
    expect((await smtp().waitFor(admin.email, /requires two-factor sign-in/)).links.some((l) => l.endsWith("/account#two-factor"))).toBe(true);

    const blocked = await call(agenciesRoute, "GET", "/v1/services/studio/agencies", { token: admin.token, headers: admin.as });
    expect([blocked.status, blocked.json.error]).toEqual([403, "TWO_FACTOR_SETUP_REQUIRED"]);
    // What they need to turn it on still answers.
    const me = await call(accountRoute, "GET", "/v1/account", { token: admin.token, headers: admin.as });
    expect([me.status, me.json.require_two_factor, me.json.member.two_factor_enabled]).toEqual([200, true, false]);
    expect((await call(agenciesRoute, "GET", "/v1/services/studio/agencies", { token: photographer.token, headers: photographer.as })).status).toBe(200);
    // An invited login has no studio of its own: without naming one it acts for this one, and is held back there too.
    expect((await call(agenciesRoute, "GET", "/v1/services/studio/agencies", { token: admin.token })).json.error).toBe("TWO_FACTOR_SETUP_REQUIRED");

    const adminFactor = await turnOn(admin.token, admin.password);
    // Turning it on moved nothing for this token (same credentials): it acts for the studio now.
    expect((await call(agenciesRoute, "GET", "/v1/services/studio/agencies", { token: admin.token, headers: admin.as })).status).toBe(200);
    // While the studio requires it, it cannot be turned off.
    const keep = await call(disableRoute, "POST", "/v1/account/two-factor/disable", { token: admin.token, body: { current_password: admin.password, code: adminFactor.recoveryCodes[0]! } });
    expect([keep.status, keep.json.error, keep.json.details.studios]).toEqual([409, "TWO_FACTOR_REQUIRED_BY_STUDIO", [owner.account.id]]);

    const members = await call(membersRoute, "GET", "/v1/members", { token: owner.token });
    expect(members.json.data.map((m: { email: string; two_factor_enabled: boolean }) => [m.email === owner.email ? "owner" : m.email, m.two_factor_enabled]).sort()).toEqual(
      [["owner", true], [admin.email, true], [photographer.email, false]].sort(),
    );
    const viewerAsk = await call(requirementRoute, "GET", "/v1/account/two-factor-requirement", { token: photographer.token, headers: photographer.as });
    expect([viewerAsk.status, viewerAsk.json.error]).toEqual([403, "FORBIDDEN_ROLE"]);
    const log = await call(auditRoute, "GET", "/v1/audit-log?action=studio.two_factor_requirement_changed", { token: owner.token });
    expect(log.json.data.map((e: { action: string; data: unknown }) => [e.action, e.data])).toEqual([["studio.two_factor_requirement_changed", { required: true }]]);
    expect(ownerFactor.secret).not.toBe(adminFactor.secret);
  });

  it("a person's own name is theirs: the team sees it, the studio keeps its name", async () => {
    const owner = await testAccount();
    const renamed = await call(profileRoute, "PATCH", "/v1/account/profile", { token: owner.token, body: { name: "  Ada Lovelace " } });
    expect([renamed.status, renamed.json.name]).toEqual([200, "Ada Lovelace"]);
    const me = await call(accountRoute, "GET", "/v1/account", { token: owner.token });
    expect([me.json.name, me.json.member.name]).toEqual([owner.account.name, "Ada Lovelace"]);
    const members = await call(membersRoute, "GET", "/v1/members", { token: owner.token });
    expect(members.json.data[0].name).toBe("Ada Lovelace");
    const empty = await call(profileRoute, "PATCH", "/v1/account/profile", { token: owner.token, body: { name: "  " } });
    expect([empty.status, empty.json.details.fields[0].field]).toEqual([400, "name"]);
  });
});
