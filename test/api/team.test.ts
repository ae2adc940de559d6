// A studio's team: invitations by real email (a local SMTP server), members acting
// for the studio with a role, the ledger naming who spent, and the audit log.
import sharp from "sharp";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as tokenRoute from "@/app/v1/auth/token/route";
import * as accountRoute from "@/app/v1/account/route";
import * as invitationsRoute from "@/app/v1/invitations/route";
import * as invitationRoute from "@/app/v1/invitations/[id]/route";
import * as resendRoute from "@/app/v1/invitations/[id]/resend/route";
import * as acceptRoute from "@/app/v1/invitations/accept/route";
import * as membersRoute from "@/app/v1/members/route";
import * as memberRoute from "@/app/v1/members/[id]/route";
import * as studiosRoute from "@/app/v1/studios/route";
import * as auditRoute from "@/app/v1/audit-log/route";
import * as apiKeysRoute from "@/app/v1/api-keys/route";
import * as apiKeyRoute from "@/app/v1/api-keys/[id]/route";
import * as checkoutRoute from "@/app/v1/billing/checkout/route";
import * as webhookEndpointsRoute from "@/app/v1/webhook-endpoints/route";
import * as uploadsRoute from "@/app/v1/uploads/route";
import * as bgRemoveRoute from "@/app/v1/services/bg-remove/route";
import * as agenciesRoute from "@/app/v1/services/studio/agencies/route";
import * as agencyRoute from "@/app/v1/services/studio/agencies/[agencyId]/route";
import * as transactionsRoute from "@/app/v1/wallet/transactions/route";
import { getDb } from "@/lib/foundation/db/client";
import { describeInvitation } from "@/lib/services/team/invitations";
import { accounts, invitations, walletTransactions } from "@/lib/foundation/db/schema";
import { call, testAccount } from "../http";
import { smtpServerForFile, tokenOf } from "../support/smtp-test-server";

const smtp = smtpServerForFile();
const PASSWORD = "a long enough pass phrase";
const fresh = (who: string) => `${who}-${Math.random().toString(36).slice(2, 8)}@example.com`;
const signIn = async (email: string, password = PASSWORD) => (await call(tokenRoute, "POST", "/v1/auth/token", { body: { email, password } })).json.access_token as string;

/** The owner invites `email` as `role`; the link in the email is followed; the new member signs in. */
async function join(owner: { token: string }, role: "admin" | "photographer" | "viewer", email = fresh(role)) {
  const inv = await call(invitationsRoute, "POST", "/v1/invitations", { token: owner.token, body: { email, role } });
  expect(inv.status, inv.text).toBe(201);
  const mail = await smtp().waitFor(email, /Join /);
  const link = mail.links.find((l) => l.includes("/invite?token="))!;
  const accepted = await call(acceptRoute, "POST", "/v1/invitations/accept", { body: { token: tokenOf(link), name: `Sam ${role}`, password: PASSWORD } });
  expect(accepted.status, accepted.text).toBe(200);
  const token = await signIn(email);
  return { email, token, invitationId: inv.json.id as string, link, studioId: accepted.json.studio.id as string };
}

async function png() {
  return sharp({ create: { width: 32, height: 24, channels: 3, background: { r: 10, g: 200, b: 40 } } }).png().toBuffer();
}

async function upload(token: string, headers: Record<string, string>) {
  const form = new FormData();
  form.append("file", new File([new Uint8Array(await png())], "p.png", { type: "image/png" }));
  const res = await call(uploadsRoute, "POST", "/v1/uploads", { token, headers, rawBody: form });
  expect(res.status, res.text).toBe(201);
  return res.json.url as string;
}

describe("invitations", () => {
  it("the e-mail and the invitation page name the studio, the role and who invited, before accepting", async () => {
    const db = await getDb();
    // A studio renamed from its owner's name: "<person> invited you to join <studio>".
    const owner = await testAccount();
    await db.update(accounts).set({ name: "Lee Portraits", personName: "Ann Lee" }).where(eq(accounts.id, owner.account.id));
    const email = fresh("viewer");
    expect((await call(invitationsRoute, "POST", "/v1/invitations", { token: owner.token, body: { email, role: "viewer" } })).status).toBe(201);
    const mail = await smtp().waitFor(email, /Join Lee Portraits/);
    expect(mail.text).toContain("Ann Lee invited you to join Lee Portraits on Print Studio as a viewer.");
    const token = tokenOf(mail.links.find((l) => l.includes("/invite?token="))!);
    expect(await describeInvitation(db, token)).toMatchObject({ studio: "Lee Portraits", role: "viewer", inviter: "Ann Lee", email, status: "pending" });

    // A studio still named after its owner reads as the owner's studio, not as a second person.
    const plain = await testAccount();
    const other = fresh("admin");
    expect((await call(invitationsRoute, "POST", "/v1/invitations", { token: plain.token, body: { email: other, role: "admin" } })).status).toBe(201);
    const plainMail = await smtp().waitFor(other, /Join /);
    expect(plainMail.text).toContain(`${plain.account.name} invited you to join ${plain.account.name}'s studio on Print Studio as an admin.`);
    const plainToken = tokenOf(plainMail.links.find((l) => l.includes("/invite?token="))!);
    expect(await describeInvitation(db, plainToken)).toMatchObject({ studio: `${plain.account.name}'s studio`, inviter: plain.account.name, role: "admin" });

    // Once accepted the page says so; a link that names no invitation describes nothing.
    expect((await call(acceptRoute, "POST", "/v1/invitations/accept", { body: { token, name: "Vic Viewer", password: PASSWORD } })).status).toBe(200);
    expect(await describeInvitation(db, token)).toMatchObject({ status: "accepted" });
    expect(await describeInvitation(db, token.slice(0, -2) + "xx")).toBeNull();
    expect(await describeInvitation(db, "")).toBeNull();
  });

  it("an emailed link makes a login that acts for the studio with its role; the link works once", async () => {
    const owner = await testAccount({ tokens: 1000 });
    const sam = await join(owner, "photographer");
    expect(sam.studioId).toBe(owner.account.id);
    // Sam's login was made by the invitation: it belongs to the owner's studio only (no empty studio of its own).
    const studios = await call(studiosRoute, "GET", "/v1/studios", { token: sam.token });
    expect(studios.json.data.map((s: { id: string; role: string }) => [s.id === owner.account.id ? "owner's" : "own", s.role])).toEqual([["owner's", "photographer"]]);
    const as = { "x-studio-id": owner.account.id };
    const me = await call(accountRoute, "GET", "/v1/account", { token: sam.token, headers: as });
    expect(me.json).toMatchObject({ id: owner.account.id, role: "photographer", member: { email: sam.email, email_verified: true } });
    // The same link again, and an altered one.
    const again = await call(acceptRoute, "POST", "/v1/invitations/accept", { body: { token: tokenOf(sam.link) } });
    expect([again.status, again.json.error]).toEqual([400, "TOKEN_USED"]);
    const altered = await call(acceptRoute, "POST", "/v1/invitations/accept", { body: { token: tokenOf(sam.link).slice(0, -2) + "xx" } });
    expect([altered.status, altered.json.error, altered.json.details.fields[0].field]).toEqual([400, "TOKEN_INVALID", "token"]);
    // A studio Sam is not in.
    const stranger = await testAccount();
    const not = await call(accountRoute, "GET", "/v1/account", { token: sam.token, headers: { "x-studio-id": stranger.account.id } });
    expect([not.status, not.json.error]).toEqual([403, "NOT_A_MEMBER"]);
  });

  it("an address that already has a login joins without a new password; a new login needs name and password", async () => {
    const owner = await testAccount();
    const existing = await testAccount();
    await call(invitationsRoute, "POST", "/v1/invitations", { token: owner.token, body: { email: existing.email, role: "viewer" } });
    const link = (await smtp().waitFor(existing.email, /Join /)).links.find((l) => l.includes("/invite?token="))!;
    const res = await call(acceptRoute, "POST", "/v1/invitations/accept", { body: { token: tokenOf(link) } });
    expect(res.json).toMatchObject({ login_created: false, role: "viewer", studio: { id: owner.account.id } });
    const me = await call(accountRoute, "GET", "/v1/account", { token: existing.token, headers: { "x-studio-id": owner.account.id } });
    expect(me.json.role).toBe("viewer");

    const email = fresh("new");
    await call(invitationsRoute, "POST", "/v1/invitations", { token: owner.token, body: { email, role: "viewer" } });
    const newLink = (await smtp().waitFor(email, /Join /)).links.find((l) => l.includes("/invite?token="))!;
    const missing = await call(acceptRoute, "POST", "/v1/invitations/accept", { body: { token: tokenOf(newLink), name: "Kim" } });
    expect([missing.status, missing.json.details.fields[0].field]).toEqual([400, "password"]);
    // The refused attempt left the link usable.
    const ok = await call(acceptRoute, "POST", "/v1/invitations/accept", { body: { token: tokenOf(newLink), name: "Kim", password: PASSWORD } });
    expect(ok.json.login_created).toBe(true);
    // Kim joined the owner's studio and has no empty studio (nor sign-up bonus) of her own: only people who sign up get one.
    const kim = (await call(tokenRoute, "POST", "/v1/auth/token", { body: { email, password: PASSWORD } })).json.access_token as string;
    const kimStudios = await call(studiosRoute, "GET", "/v1/studios", { token: kim });
    expect(kimStudios.json.data.map((s: { id: string; role: string }) => [s.id, s.role])).toEqual([[owner.account.id, "viewer"]]);
    // Her account page is about her (name and address), acting for the owner's studio.
    const kimMe = await call(accountRoute, "GET", "/v1/account", { token: kim });
    expect(kimMe.json).toMatchObject({ id: owner.account.id, role: "viewer", member: { name: "Kim", email } });
    const db = await getDb();
    const [kimLogin] = await db.select().from(accounts).where(eq(accounts.email, email));
    expect(await db.select().from(walletTransactions).where(eq(walletTransactions.accountId, kimLogin!.id))).toEqual([]);
    // Removed from it, she is left a studio of her own (empty, no bonus) rather than nowhere to go.
    const kimMember = (await call(membersRoute, "GET", "/v1/members", { token: owner.token })).json.data.find((m: { email: string }) => m.email === email);
    expect((await call(memberRoute, "DELETE", `/v1/members/${kimMember.id}`, { token: owner.token, params: { id: kimMember.id } })).status).toBeLessThan(300);
    const again = (await call(tokenRoute, "POST", "/v1/auth/token", { body: { email, password: PASSWORD } })).json.access_token as string;
    const own = await call(accountRoute, "GET", "/v1/account", { token: again });
    expect(own.json).toMatchObject({ id: kimLogin!.id, role: "owner" });
    expect(await db.select().from(walletTransactions).where(eq(walletTransactions.accountId, kimLogin!.id))).toEqual([]);
  });

  it("revoked and expired links are refused with their own codes; resend replaces the link", async () => {
    const owner = await testAccount();
    const email = fresh("late");
    const inv = await call(invitationsRoute, "POST", "/v1/invitations", { token: owner.token, body: { email, role: "photographer" } });
    const first = (await smtp().waitFor(email, /Join /)).links.find((l) => l.includes("/invite?token="))!;
    const resent = await call(resendRoute, "POST", `/v1/invitations/${inv.json.id}/resend`, { token: owner.token, params: { id: inv.json.id } });
    expect(resent.status).toBe(200);
    await expect.poll(() => smtp().to(email, /Join /).length).toBe(2);
    const second = smtp().to(email, /Join /)[1]!.links.find((l) => l.includes("/invite?token="))!;
    const old = await call(acceptRoute, "POST", "/v1/invitations/accept", { body: { token: tokenOf(first), name: "X", password: PASSWORD } });
    expect(old.json.error).toBe("TOKEN_INVALID");
    const db = await getDb();
    await db.update(invitations).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(invitations.id, inv.json.id));
    const expired = await call(acceptRoute, "POST", "/v1/invitations/accept", { body: { token: tokenOf(second), name: "X", password: PASSWORD } });
    expect([expired.status, expired.json.error]).toEqual([400, "TOKEN_EXPIRED"]);
    await db.update(invitations).set({ expiresAt: new Date(Date.now() + 60_000) }).where(eq(invitations.id, inv.json.id));
    const revoked = await call(invitationRoute, "DELETE", `/v1/invitations/${inv.json.id}`, { token: owner.token, params: { id: inv.json.id } });
    expect(revoked.json.status).toBe("revoked");
    const refused = await call(acceptRoute, "POST", "/v1/invitations/accept", { body: { token: tokenOf(second), name: "X", password: PASSWORD } });
    expect([refused.status, refused.json.error]).toEqual([400, "INVITATION_REVOKED"]);
    const list = await call(invitationsRoute, "GET", "/v1/invitations", { token: owner.token });
    expect(list.json.data.map((i: { status: string }) => i.status)).toEqual(["revoked"]);
  });

  it("another studio's invitation is a 404", async () => {
    const owner = await testAccount();
    const other = await testAccount();
    const inv = await call(invitationsRoute, "POST", "/v1/invitations", { token: owner.token, body: { email: fresh("x"), role: "viewer" } });
    for (const [route, method, url] of [
      [invitationRoute, "DELETE", `/v1/invitations/${inv.json.id}`],
      [resendRoute, "POST", `/v1/invitations/${inv.json.id}/resend`],
    ] as const) {
      const res = await call(route, method, url, { token: other.token, params: { id: inv.json.id } });
      expect([res.status, res.json.error]).toEqual([404, "NOT_FOUND"]);
    }
  });
});

describe("roles", () => {
  it("a photographer runs services on the studio's wallet, named on the ledger, but cannot reach billing, keys, webhooks, members or the audit log", async () => {
    const owner = await testAccount({ tokens: 1000 });
    const sam = await join(owner, "photographer");
    const as = { "x-studio-id": owner.account.id };
    const url = await upload(sam.token, as);
    const job = await call(bgRemoveRoute, "POST", "/v1/services/bg-remove", { token: sam.token, headers: as, body: { image_url: url } });
    expect(job.status, job.text).toBe(202);
    const ledger = await call(transactionsRoute, "GET", "/v1/wallet/transactions", { token: owner.token });
    const debit = ledger.json.data.find((t: { type: string }) => t.type === "debit");
    expect(debit.spent_by).toMatchObject({ type: "member", name: "Sam photographer" });
    const mine = await call(transactionsRoute, "GET", `/v1/wallet/transactions?spent_by=${debit.spent_by.id}`, { token: owner.token });
    expect(mine.json.data.map((t: { id: string }) => t.id)).toEqual([debit.id]);
    const forbidden = [
      [checkoutRoute, "POST", "/v1/billing/checkout", { pack: "tokens-1000" }, "owner"],
      [apiKeysRoute, "GET", "/v1/api-keys", undefined, "admin"],
      [apiKeysRoute, "POST", "/v1/api-keys", { name: "mine" }, "admin"],
      [webhookEndpointsRoute, "GET", "/v1/webhook-endpoints", undefined, "admin"],
      [invitationsRoute, "POST", "/v1/invitations", { email: fresh("y"), role: "viewer" }, "admin"],
      [auditRoute, "GET", "/v1/audit-log", undefined, "admin"],
      [accountRoute, "PATCH", "/v1/account", { name: "Taken over" }, "admin"],
    ] as const;
    for (const [route, method, path, body, role] of forbidden) {
      const res = await call(route, method, path, { token: sam.token, headers: as, body });
      expect([path, method, res.status, res.json.error, res.json.details?.required_role]).toEqual([path, method, 403, "FORBIDDEN_ROLE", role]);
    }
    // Without naming a studio Sam acts for the only one Sam belongs to, with the same role.
    expect((await call(apiKeysRoute, "GET", "/v1/api-keys", { token: sam.token })).status).toBe(403);
  });

  it("a viewer reads but changes nothing, and is charged nothing", async () => {
    const owner = await testAccount({ tokens: 1000 });
    const vic = await join(owner, "viewer");
    const as = { "x-studio-id": owner.account.id };
    expect((await call(agenciesRoute, "GET", "/v1/services/studio/agencies", { token: vic.token, headers: as })).status).toBe(200);
    const made = await call(agenciesRoute, "POST", "/v1/services/studio/agencies", { token: vic.token, headers: as, body: { name: "Nope", agency_type: "school" } });
    expect([made.status, made.json.details.required_role]).toEqual([403, "photographer"]);
    const ledger = await call(transactionsRoute, "GET", "/v1/wallet/transactions", { token: owner.token });
    expect(ledger.json.data.filter((t: { type: string }) => t.type === "debit")).toEqual([]);
  });

  it("the last owner can neither be demoted nor leave; admins cannot make owners; removing a member ends their sessions at once", async () => {
    const owner = await testAccount();
    const ada = await join(owner, "admin");
    const sam = await join(owner, "photographer");
    const as = { "x-studio-id": owner.account.id };
    const members = (await call(membersRoute, "GET", "/v1/members", { token: owner.token })).json.data as Array<{ id: string; email: string; role: string; you: boolean }>;
    expect(members.map((m) => m.role)).toEqual(["owner", "admin", "photographer"]);
    const me = members.find((m) => m.you)!;
    const samId = members.find((m) => m.email === sam.email)!.id;
    const demote = await call(memberRoute, "PATCH", `/v1/members/${me.id}`, { token: owner.token, params: { id: me.id }, body: { role: "admin" } });
    expect([demote.status, demote.json.error]).toEqual([409, "LAST_OWNER"]);
    const leave = await call(memberRoute, "DELETE", `/v1/members/${me.id}`, { token: owner.token, params: { id: me.id } });
    expect([leave.status, leave.json.error]).toEqual([409, "LAST_OWNER"]);
    const promote = await call(memberRoute, "PATCH", `/v1/members/${samId}`, { token: ada.token, headers: as, params: { id: samId }, body: { role: "owner" } });
    expect([promote.status, promote.json.details?.required_role]).toEqual([403, "owner"]);
    const toViewer = await call(memberRoute, "PATCH", `/v1/members/${samId}`, { token: ada.token, headers: as, params: { id: samId }, body: { role: "viewer" } });
    expect(toViewer.json.role).toBe("viewer");
    // The demotion holds on Sam's next request.
    const blocked = await call(agenciesRoute, "POST", "/v1/services/studio/agencies", { token: sam.token, headers: as, body: { name: "Nope", agency_type: "school" } });
    expect(blocked.status).toBe(403);
    const removed = await call(memberRoute, "DELETE", `/v1/members/${samId}`, { token: ada.token, headers: as, params: { id: samId } });
    expect(removed.status).toBe(204);
    expect((await call(accountRoute, "GET", "/v1/account", { token: sam.token })).status).toBe(401);
    await smtp().waitFor(sam.email, /You were removed from/);
    // Another studio's owner cannot touch these members.
    const other = await testAccount();
    const foreign = await call(memberRoute, "PATCH", `/v1/members/${me.id}`, { token: other.token, params: { id: me.id }, body: { role: "viewer" } });
    expect([foreign.status, foreign.json.error]).toEqual([404, "NOT_FOUND"]);
    const foreignDelete = await call(memberRoute, "DELETE", `/v1/members/${me.id}`, { token: other.token, params: { id: me.id } });
    expect(foreignDelete.status).toBe(404);
  });

  it("face matching consent is an admin's switch, recorded by name in the audit log", async () => {
    const owner = await testAccount();
    const sam = await join(owner, "photographer");
    const ada = await join(owner, "admin");
    const as = { "x-studio-id": owner.account.id };
    const agency = await call(agenciesRoute, "POST", "/v1/services/studio/agencies", { token: sam.token, headers: as, body: { name: "Lincoln", agency_type: "school" } });
    expect(agency.status).toBe(201);
    const id = String(agency.json.id);
    const consent = { face_matching_enabled: true, consent_confirmed: true };
    const bySam = await call(agencyRoute, "PATCH", `/v1/services/studio/agencies/${id}`, { token: sam.token, headers: as, params: { agencyId: id }, body: consent });
    expect([bySam.status, bySam.json.details?.required_role]).toEqual([403, "admin"]);
    const renamed = await call(agencyRoute, "PATCH", `/v1/services/studio/agencies/${id}`, { token: sam.token, headers: as, params: { agencyId: id }, body: { name: "Lincoln Elementary" } });
    expect(renamed.status).toBe(200);
    const byAda = await call(agencyRoute, "PATCH", `/v1/services/studio/agencies/${id}`, { token: ada.token, headers: as, params: { agencyId: id }, body: consent });
    expect(byAda.status).toBe(200);
    const log = await call(auditRoute, "GET", "/v1/audit-log?action=agency.face_matching_changed", { token: owner.token });
    expect(log.json.data).toHaveLength(1);
    expect(log.json.data[0]).toMatchObject({ target: id, actor: { type: "member", name: "Sam admin" }, data: { enabled: true, confirmed_by: expect.stringContaining(ada.email) } });
  });

  it("an API key acts with its maker's role", async () => {
    const owner = await testAccount();
    const ada = await join(owner, "admin");
    const key = await call(apiKeysRoute, "POST", "/v1/api-keys", { token: ada.token, headers: { "x-studio-id": owner.account.id }, body: { name: "Ada's integration" } });
    expect(key.status).toBe(201);
    const billing = await call(checkoutRoute, "POST", "/v1/billing/checkout", { token: key.json.key, body: { pack: "tokens-1000" } });
    expect([billing.status, billing.json.details?.required_role]).toEqual([403, "owner"]);
    expect((await call(apiKeysRoute, "GET", "/v1/api-keys", { token: key.json.key })).status).toBe(200);
  });
});

describe("audit log", () => {
  it("records who did what, from where, and only for the studio's owners and admins", async () => {
    const owner = await testAccount();
    expect((await call(tokenRoute, "POST", "/v1/auth/token", { body: { email: owner.email, password: "wrong password entirely" } })).status).toBe(401);
    await signIn(owner.email, owner.password);
    await call(accountRoute, "PATCH", "/v1/account", { token: owner.token, body: { name: "Northlight" }, ip: "198.51.100.7" });
    const sam = await join(owner, "photographer");
    const key = await call(apiKeysRoute, "POST", "/v1/api-keys", { token: owner.token, body: { name: "Lab" } });
    await call(apiKeyRoute, "DELETE", `/v1/api-keys/${key.json.id}`, { token: owner.token, params: { id: key.json.id } });
    const members = (await call(membersRoute, "GET", "/v1/members", { token: owner.token })).json.data as Array<{ id: string; email: string }>;
    const samId = members.find((m) => m.email === sam.email)!.id;
    await call(memberRoute, "PATCH", `/v1/members/${samId}`, { token: owner.token, params: { id: samId }, body: { role: "viewer" } });
    const log = await call(auditRoute, "GET", "/v1/audit-log?limit=50", { token: owner.token });
    expect(log.status).toBe(200);
    const actions = (log.json.data as Array<{ action: string }>).map((e) => e.action).reverse();
    expect(actions).toEqual([
      "auth.sign_in_failed",
      "auth.sign_in",
      "account.renamed",
      "invitation.created",
      "invitation.accepted",
      "api_key.created",
      "api_key.revoked",
      "member.role_changed",
    ]);
    const renamed = log.json.data.find((e: { action: string }) => e.action === "account.renamed");
    expect(renamed).toMatchObject({ actor: { type: "member", id: owner.account.id }, ip: "198.51.100.7", data: { name: "Northlight" } });
    const accepted = log.json.data.find((e: { action: string }) => e.action === "invitation.accepted");
    expect(accepted.actor.name).toBe("Sam photographer");
    const filtered = await call(auditRoute, "GET", "/v1/audit-log?action=member.role_changed", { token: owner.token });
    expect(filtered.json.data).toHaveLength(1);
    expect(filtered.json.data[0].data).toMatchObject({ from: "photographer", to: "viewer" });
  });
});
