// Deleting a studio (DELETE /v1/account): only its own login, with its name typed
// back, the password and the two-factor code; never while it would strand another
// studio, bill a card, or cut work in flight. Members keep their logins and are told.
// (What it removes, row by row and file by file, is checked by the cross-account sweep.)
import { describe, expect, it } from "vitest";
import * as tokenRoute from "@/app/v1/auth/token/route";
import * as accountRoute from "@/app/v1/account/route";
import * as twoFactorRoute from "@/app/v1/account/two-factor/route";
import * as confirmRoute from "@/app/v1/account/two-factor/confirm/route";
import * as invitationsRoute from "@/app/v1/invitations/route";
import * as acceptRoute from "@/app/v1/invitations/accept/route";
import * as memberRoute from "@/app/v1/members/[id]/route";
import * as membersRoute from "@/app/v1/members/route";
import * as studiosRoute from "@/app/v1/studios/route";
import { getDb } from "@/lib/foundation/db/client";
import { billingSubscriptions } from "@/lib/foundation/db/schema";
import { call, testAccount } from "../http";
import { smtpServerForFile, tokenOf } from "../support/smtp-test-server";
import { secretOf, totpCode } from "../support/totp";

const smtp = smtpServerForFile();
const PASSWORD = "a long enough pass phrase";

async function invite(owner: { token: string }, role: "owner" | "admin" | "photographer") {
  const email = `${role}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  expect((await call(invitationsRoute, "POST", "/v1/invitations", { token: owner.token, body: { email, role } })).status).toBe(201);
  const link = (await smtp().waitFor(email, /Join /)).links.find((l) => l.includes("/invite?token="))!;
  expect((await call(acceptRoute, "POST", "/v1/invitations/accept", { body: { token: tokenOf(link), name: `Sam ${role}`, password: PASSWORD } })).status).toBe(200);
  const token = (await call(tokenRoute, "POST", "/v1/auth/token", { body: { email, password: PASSWORD } })).json.access_token as string;
  return { email, token };
}

const remove = (token: string, body: Record<string, string>, headers?: Record<string, string>) => call(accountRoute, "DELETE", "/v1/account", { token, body, headers });

describe("deleting a studio", () => {
  it("needs its name typed back and the password; members keep their logins and are told", async () => {
    const owner = await testAccount();
    const sam = await invite(owner, "photographer");
    const wrongName = await remove(owner.token, { confirm_name: "Something else", current_password: owner.password });
    expect([wrongName.status, wrongName.json.error, wrongName.json.details.fields[0].field]).toEqual([400, "CONFIRMATION_MISMATCH", "confirm_name"]);
    const wrongPassword = await remove(owner.token, { confirm_name: owner.account.name, current_password: "nope" });
    expect([wrongPassword.status, wrongPassword.json.error]).toEqual([400, "WRONG_PASSWORD"]);
    const missing = await call(accountRoute, "DELETE", "/v1/account", { token: owner.token });
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.json.details)).toContain("confirm_name");

    const done = await remove(owner.token, { confirm_name: owner.account.name, current_password: owner.password });
    expect([done.status, done.json.deleted]).toEqual([200, true]);
    expect((await call(accountRoute, "GET", "/v1/account", { token: owner.token })).status).toBe(401);
    expect((await call(tokenRoute, "POST", "/v1/auth/token", { body: { email: owner.email, password: owner.password } })).status).toBe(401);
    expect((await smtp().waitFor(owner.email, /was deleted/)).text).toContain("Nothing of it can be restored");
    expect((await smtp().waitFor(sam.email, /was deleted/)).text).toContain("Your own login and your other studios are not affected");
    // Sam's login and own studio stay; the deleted one is gone from the list.
    const studios = await call(studiosRoute, "GET", "/v1/studios", { token: sam.token });
    expect(studios.json.data.map((s: { role: string }) => s.role)).toEqual(["owner"]);
    const named = await call(accountRoute, "GET", "/v1/account", { token: sam.token, headers: { "x-studio-id": owner.account.id } });
    expect([named.status, named.json.error]).toEqual([403, "NOT_A_MEMBER"]);
  });

  it("is the studio's own login's to do, not another owner's, nor an admin's", async () => {
    const founder = await testAccount();
    const coOwner = await invite(founder, "owner");
    const admin = await invite(founder, "admin");
    const as = { "x-studio-id": founder.account.id };
    const byOwner = await remove(coOwner.token, { confirm_name: founder.account.name, current_password: PASSWORD }, as);
    expect([byOwner.status, byOwner.json.error]).toEqual([403, "NOT_THE_STUDIO_LOGIN"]);
    const byAdmin = await remove(admin.token, { confirm_name: founder.account.name, current_password: PASSWORD }, as);
    expect([byAdmin.status, byAdmin.json.error]).toEqual([403, "FORBIDDEN_ROLE"]);
    expect((await call(accountRoute, "GET", "/v1/account", { token: founder.token })).status).toBe(200);
  });

  it("asks for the two-factor code when it is on", async () => {
    const owner = await testAccount();
    const begun = await call(twoFactorRoute, "POST", "/v1/account/two-factor", { token: owner.token, body: { current_password: owner.password } });
    const secret = secretOf(begun.json.otpauth_uri);
    expect((await call(confirmRoute, "POST", "/v1/account/two-factor/confirm", { token: owner.token, body: { code: totpCode(secret) } })).status).toBe(200);
    const noCode = await remove(owner.token, { confirm_name: owner.account.name, current_password: owner.password });
    expect([noCode.status, noCode.json.error, noCode.json.details.fields[0].field]).toEqual([400, "INVALID_TWO_FACTOR_CODE", "code"]);
    const ok = await remove(owner.token, { confirm_name: owner.account.name, current_password: owner.password, code: totpCode(secret, 1) });
    expect(ok.status, ok.text).toBe(200);
  });

  it("refuses while it would leave another studio without an owner, or while Premium is billed", async () => {
    const other = await testAccount();
    const person = await testAccount();
    // `person` is made an owner of `other`'s studio, and `other` leaves it: person is its only owner.
    const email = person.email;
    expect((await call(invitationsRoute, "POST", "/v1/invitations", { token: other.token, body: { email, role: "owner" } })).status).toBe(201);
    const link = (await smtp().waitFor(email, /Join /)).links.find((l) => l.includes("/invite?token="))!;
    expect((await call(acceptRoute, "POST", "/v1/invitations/accept", { body: { token: tokenOf(link) } })).status).toBe(200);
    const mine = (await call(membersRoute, "GET", "/v1/members", { token: other.token })).json.data.find((m: { you: boolean }) => m.you);
    expect((await call(memberRoute, "DELETE", `/v1/members/${mine.id}`, { token: other.token, params: { id: mine.id } })).status).toBe(204);
    const stranded = await remove(person.token, { confirm_name: person.account.name, current_password: person.password });
    expect([stranded.status, stranded.json.error, stranded.json.details.studios]).toEqual([409, "LAST_OWNER_ELSEWHERE", [other.account.id]]);

    const billed = await testAccount({ plan: "premium" });
    await (await getDb()).insert(billingSubscriptions).values({ id: `sub_${billed.account.id}`, accountId: billed.account.id, status: "active", eventCreated: 1 });
    const refused = await remove(billed.token, { confirm_name: billed.account.name, current_password: billed.password });
    expect([refused.status, refused.json.error]).toEqual([409, "SUBSCRIPTION_ACTIVE"]);
  });
});
