import crypto from "node:crypto";
import { and, count, desc, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { accounts, invitations } from "@/lib/foundation/db/schema";
import { ApiError, conflict, notFound } from "@/lib/foundation/http/api-error";
import { appOrigin } from "@/lib/foundation/http/app-origin";
import { newId } from "@/lib/foundation/ids";
import { assertRole, type Role } from "@/lib/domain/identity/roles";
import { recordAudit } from "@/lib/domain/audit/record-audit";
import { createAccount } from "@/lib/domain/identity/create-account";
import { findAccountByEmail } from "@/lib/domain/identity/find-account";
import { normalizeEmail } from "@/lib/domain/identity/public-account";
import { personName } from "@/lib/domain/identity/person-name";
import { sendMail } from "@/lib/domain/mail/send-mail";
import { invitationMail } from "@/lib/domain/mail/templates";
import { addMember, type Actor } from "./members";

const TTL_MS = 7 * 24 * 3600_000;
const hashToken = (token: string) => crypto.createHash("sha256").update(token).digest("hex");

type Row = typeof invitations.$inferSelect;

function status(row: Row): "pending" | "accepted" | "revoked" | "expired" {
  if (row.acceptedAt) return "accepted";
  if (row.revokedAt) return "revoked";
  return row.expiresAt.getTime() <= Date.now() ? "expired" : "pending";
}

function toInvitation(row: Row) {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    status: status(row),
    invited_by: row.invitedBy,
    expires_at: row.expiresAt.toISOString(),
    created_at: row.createdAt.toISOString(),
  };
}

/** Only owners invite owners. */
function assertMayInvite(actor: Actor, role: Role) {
  assertRole(actor.role, "admin");
  if (role === "owner") assertRole(actor.role, "owner");
}

/**
 * The studio as an invitation names it. A studio keeps its owner's name until it is
 * renamed, so "Ann Lee invited you to join Ann Lee" would read as a person: then it
 * is "Ann Lee's studio".
 */
export function invitingStudioName(studio: string, inviter: string | null): string {
  return inviter !== null && studio.trim().toLowerCase() === inviter.trim().toLowerCase() ? `${studio}'s studio` : studio;
}

async function sendInvitation(db: Db, row: Row, token: string, inviterName: string) {
  const [studio] = await db.select({ name: accounts.name }).from(accounts).where(eq(accounts.id, row.accountId));
  const url = `${appOrigin()}/invite?token=${encodeURIComponent(token)}`;
  const studioName = studio ? invitingStudioName(studio.name, inviterName) : "a studio";
  // Keyed by the link: the same invitation link is never mailed twice; a resend makes a new link, and a new message.
  await sendMail(db, invitationMail(row.email, studioName, inviterName, row.role, url), { key: `invitation:${row.id}:${row.tokenHash}`, accountId: row.accountId });
}

/**
 * POST /v1/invitations: emails a single-use link valid 7 days. Inviting an address
 * that already has a pending invitation replaces it (the old link stops working).
 */
export async function createInvitation(db: Db, actor: Actor & { userId: string | null; name: string }, input: { email: string; role: Role }) {
  assertMayInvite(actor, input.role);
  const email = normalizeEmail(input.email);
  const token = crypto.randomBytes(32).toString("base64url");
  const row = await db.transaction(async (tx) => {
    await tx
      .update(invitations)
      .set({ revokedAt: new Date() })
      .where(and(eq(invitations.accountId, actor.accountId), eq(invitations.email, email), isNull(invitations.acceptedAt), isNull(invitations.revokedAt)));
    const [row] = await tx
      .insert(invitations)
      .values({ id: newId("inv"), accountId: actor.accountId, email, role: input.role, tokenHash: hashToken(token), invitedBy: actor.userId, expiresAt: new Date(Date.now() + TTL_MS) })
      .returning();
    await recordAudit(tx, { accountId: actor.accountId, action: "invitation.created", target: row!.id, data: { email, role: input.role } });
    return row!;
  });
  await sendInvitation(db, row, token, actor.name);
  return toInvitation(row);
}

export async function listInvitations(db: Db, accountId: string, page: { limit: number; offset: number }) {
  const where = eq(invitations.accountId, accountId);
  const [rows, [total]] = await Promise.all([
    db.select().from(invitations).where(where).orderBy(desc(invitations.createdAt), desc(invitations.id)).limit(page.limit).offset(page.offset),
    db.select({ n: count() }).from(invitations).where(where),
  ]);
  return { items: rows.map(toInvitation), total: total?.n ?? 0 };
}

/** DELETE /v1/invitations/{id}: the link stops working at once. */
export async function revokeInvitation(db: Db, actor: Actor, id: string) {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(invitations).where(and(eq(invitations.id, id), eq(invitations.accountId, actor.accountId)));
    if (!row) throw notFound("Invitation");
    assertMayInvite(actor, row.role);
    if (status(row) !== "pending") throw conflict("INVITATION_NOT_PENDING", `This invitation is ${status(row)}.`);
    const [revoked] = await tx.update(invitations).set({ revokedAt: new Date() }).where(eq(invitations.id, id)).returning();
    await recordAudit(tx, { accountId: actor.accountId, action: "invitation.revoked", target: id, data: { email: row.email, role: row.role } });
    return toInvitation(revoked!);
  });
}

/** POST /v1/invitations/{id}/resend: a new link (the old one stops working), valid 7 days from now. */
export async function resendInvitation(db: Db, actor: Actor & { name: string }, id: string) {
  const token = crypto.randomBytes(32).toString("base64url");
  const row = await db.transaction(async (tx) => {
    const [row] = await tx.select().from(invitations).where(and(eq(invitations.id, id), eq(invitations.accountId, actor.accountId)));
    if (!row) throw notFound("Invitation");
    assertMayInvite(actor, row.role);
    if (row.acceptedAt || row.revokedAt) throw conflict("INVITATION_NOT_PENDING", `This invitation is ${status(row)}.`);
    const [updated] = await tx.update(invitations).set({ tokenHash: hashToken(token), expiresAt: new Date(Date.now() + TTL_MS) }).where(eq(invitations.id, id)).returning();
    return updated!;
  });
  await sendInvitation(db, row, token, actor.name);
  return toInvitation(row);
}

/**
 * What the invitation page shows before anyone accepts (no sign-in: the token is
 * the proof): the studio, the role, who invited, and whether the link still works.
 * Null for a token that names no invitation.
 */
export async function describeInvitation(db: Db, token: string) {
  if (!token) return null;
  const [row] = await db.select().from(invitations).where(eq(invitations.tokenHash, hashToken(token)));
  if (!row) return null;
  const [[studio], [inviter]] = await Promise.all([
    db.select({ name: accounts.name }).from(accounts).where(eq(accounts.id, row.accountId)),
    row.invitedBy ? db.select({ name: accounts.name, personName: accounts.personName }).from(accounts).where(eq(accounts.id, row.invitedBy)) : Promise.resolve([]),
  ]);
  const inviterName = inviter ? personName(inviter) : null;
  return {
    studio: studio ? invitingStudioName(studio.name, inviterName) : "a studio",
    role: row.role,
    inviter: inviterName,
    email: row.email,
    status: status(row),
    expires_at: row.expiresAt.toISOString(),
  };
}

export type InvitationDescription = NonNullable<Awaited<ReturnType<typeof describeInvitation>>>;

const invalid = (code: string, message: string, field = "token") => new ApiError(400, code, message, { fields: [{ field, message }] });

/**
 * POST /v1/invitations/accept (no sign-in: the emailed token is the proof). The
 * address's login joins the studio; without one, a login is made from `name` and
 * `password` (its address confirmed by the link itself).
 */
export async function acceptInvitation(db: Db, input: { token: string; name?: string; password?: string }) {
  const result = await db.transaction(async (tx) => {
    const [row] = await tx.select().from(invitations).where(eq(invitations.tokenHash, hashToken(input.token))).for("update");
    if (!row) throw invalid("TOKEN_INVALID", "This invitation link is not valid. Ask for a new one.");
    if (row.acceptedAt) throw invalid("TOKEN_USED", "This invitation was already accepted.");
    if (row.revokedAt) throw invalid("INVITATION_REVOKED", "This invitation was withdrawn. Ask the studio for a new one.");
    if (row.expiresAt.getTime() <= Date.now()) throw invalid("TOKEN_EXPIRED", "This invitation has expired. Ask the studio for a new one.");
    let login = await findAccountByEmail(tx, row.email);
    const created = !login;
    if (!login) {
      if (!input.name) throw invalid("VALIDATION_ERROR", "Give your name to create your login.", "name");
      if (!input.password) throw invalid("VALIDATION_ERROR", "Choose a password to create your login.", "password");
      // A member of the inviting studio only: no empty studio (nor sign-up bonus) of their own.
      login = await createAccount(tx, { email: row.email, name: input.name, password: input.password, verified: true, ownStudio: false });
    }
    await addMember(tx, { id: newId("mem"), accountId: row.accountId, userId: login.id, role: row.role });
    await tx.update(invitations).set({ acceptedAt: new Date() }).where(and(eq(invitations.id, row.id), isNull(invitations.acceptedAt), gt(invitations.expiresAt, new Date())));
    await recordAudit(tx, {
      accountId: row.accountId,
      action: "invitation.accepted",
      target: row.id,
      data: { email: row.email, role: row.role, login_created: created },
      actor: { type: "member", id: login.id, name: personName(login) },
    });
    const [studio] = await tx.select({ id: accounts.id, name: accounts.name }).from(accounts).where(eq(accounts.id, row.accountId));
    return { studio: studio!, role: row.role, login_created: created, email: row.email };
  });
  return result;
}
