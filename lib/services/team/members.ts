import { and, asc, count, eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { accounts, memberships } from "@/lib/foundation/db/schema";
import { ApiError, notFound } from "@/lib/foundation/http/api-error";
import { assertRole, type Role } from "@/lib/domain/identity/roles";
import { announceSessionsEnded, bumpCredentialsVersion } from "@/lib/domain/identity/end-sessions";
import { forgetAccount } from "@/lib/domain/identity/principal-cache";
import { recordAudit } from "@/lib/domain/audit/record-audit";
import { sendMail } from "@/lib/domain/mail/send-mail";
import { removedFromStudioMail } from "@/lib/domain/mail/templates";
import { personName, personNameSql } from "@/lib/domain/identity/person-name";

/** Who is asking: the studio, their membership and role (an API key has no membership and acts as an admin). */
export type Actor = { accountId: string; membershipId: string | null; role: Role };

type MemberRow = { id: string; userId: string; role: Role; createdAt: Date; name: string; email: string; twoFactor: boolean };

function toMember(row: MemberRow, actor: Actor) {
  return {
    id: row.id,
    user_id: row.userId,
    name: row.name,
    email: row.email,
    role: row.role,
    joined_at: row.createdAt.toISOString(),
    you: row.id === actor.membershipId,
    two_factor_enabled: row.twoFactor,
  };
}

const memberColumns = {
  id: memberships.id,
  userId: memberships.userId,
  role: memberships.role,
  createdAt: memberships.createdAt,
  name: personNameSql,
  email: accounts.email,
  twoFactor: sql<boolean>`${accounts.twoFactorEnabledAt} is not null`,
};

/** GET /v1/members: owners first, then by when they joined. */
export async function listMembers(db: Db, actor: Actor, page: { limit: number; offset: number }) {
  const where = eq(memberships.accountId, actor.accountId);
  const [rows, [total]] = await Promise.all([
    db
      .select(memberColumns)
      .from(memberships)
      .innerJoin(accounts, eq(accounts.id, memberships.userId))
      .where(where)
      .orderBy(sql`${memberships.role} = 'owner' desc`, asc(memberships.createdAt), asc(memberships.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(memberships).where(where),
  ]);
  return { items: rows.map((r) => toMember(r, actor)), total: total?.n ?? 0 };
}

/**
 * The member row, locked, with the studio's owner count read under the same locks:
 * two owners demoting each other at once cannot leave the studio without one.
 */
async function lockMember(tx: Db, accountId: string, memberId: string): Promise<{ member: MemberRow; owners: number }> {
  const rows = await tx
    .select({ id: memberships.id, userId: memberships.userId, role: memberships.role, createdAt: memberships.createdAt })
    .from(memberships)
    .where(eq(memberships.accountId, accountId))
    .orderBy(asc(memberships.id))
    .for("update");
  const found = rows.find((r) => r.id === memberId);
  if (!found) throw notFound("Member");
  const [person] = await tx
    .select({ name: personNameSql, email: accounts.email, twoFactor: memberColumns.twoFactor })
    .from(accounts)
    .where(eq(accounts.id, found.userId));
  return { member: { ...found, name: person?.name ?? "", email: person?.email ?? "", twoFactor: person?.twoFactor ?? false }, owners: rows.filter((r) => r.role === "owner").length };
}

/** Owners are changed only by owners; admins manage everyone else. */
function assertMayManage(actor: Actor, member: MemberRow, newRole?: Role) {
  assertRole(actor.role, "admin");
  if (member.role === "owner" || newRole === "owner") assertRole(actor.role, "owner");
}

/** PATCH /v1/members/{id}: the last owner cannot be demoted. */
export async function changeRole(db: Db, actor: Actor, memberId: string, role: Role) {
  const changed = await db.transaction(async (tx) => {
    const { member, owners } = await lockMember(tx, actor.accountId, memberId);
    assertMayManage(actor, member, role);
    if (member.role === role) return member;
    if (member.role === "owner" && owners === 1) throw lastOwner("demoted");
    await tx.update(memberships).set({ role }).where(eq(memberships.id, member.id));
    await recordAudit(tx, { accountId: actor.accountId, action: "member.role_changed", target: member.id, data: { email: member.email, from: member.role, to: role } });
    return { ...member, role };
  });
  // Every instance drops the cached membership before we answer (as a revoked key).
  await announceSessionsEnded(changed.userId);
  return toMember(changed, actor);
}

/**
 * DELETE /v1/members/{id}: an admin removes someone, or a member leaves. The person's
 * sessions end at once (their credentials version moves, as on a password reset);
 * their API keys and everything they made stay the studio's.
 */
export async function removeMember(db: Db, actor: Actor, memberId: string): Promise<void> {
  const leaving = memberId === actor.membershipId;
  const { member, studio } = await db.transaction(async (tx) => {
    const { member, owners } = await lockMember(tx, actor.accountId, memberId);
    if (!leaving) assertMayManage(actor, member);
    if (member.role === "owner" && owners === 1) throw lastOwner(leaving ? "leave" : "removed");
    await tx.delete(memberships).where(eq(memberships.id, member.id));
    await bumpCredentialsVersion(tx, member.userId);
    await recordAudit(tx, { accountId: actor.accountId, action: leaving ? "member.left" : "member.removed", target: member.id, data: { email: member.email, role: member.role } });
    const [studio] = await tx.select({ name: accounts.name }).from(accounts).where(eq(accounts.id, actor.accountId));
    return { member, studio };
  });
  await announceSessionsEnded(member.userId);
  forgetAccount(member.userId);
  await sendMail(db, removedFromStudioMail(member.email, studio?.name ?? "the studio", leaving), { accountId: actor.accountId });
}

function lastOwner(what: "demoted" | "removed" | "leave"): ApiError {
  const message =
    what === "leave" ? "You are the studio's last owner: make someone else an owner before you leave." : `The studio's last owner cannot be ${what}: make someone else an owner first.`;
  return new ApiError(409, "LAST_OWNER", message);
}

/** GET /v1/studios: the studios this login belongs to, and its role in each. */
export async function listStudios(db: Db, userId: string, currentStudioId: string) {
  const rows = await db
    .select({ id: accounts.id, name: accounts.name, role: memberships.role })
    .from(memberships)
    .innerJoin(accounts, eq(accounts.id, memberships.accountId))
    .where(eq(memberships.userId, userId))
    .orderBy(sql`${memberships.accountId} = ${userId} desc`, asc(accounts.name));
  return { data: rows.map((r) => ({ ...r, current: r.id === currentStudioId })) };
}

/** Adds a login to a studio (an accepted invitation). */
export async function addMember(tx: Db, input: { accountId: string; userId: string; role: Role; id: string }) {
  const [existing] = await tx.select({ id: memberships.id }).from(memberships).where(and(eq(memberships.accountId, input.accountId), eq(memberships.userId, input.userId)));
  if (existing) throw new ApiError(409, "ALREADY_MEMBER", "This login is already a member of the studio.");
  await tx.insert(memberships).values(input);
}

/** The acting member as the team functions take it, from the request's principal. */
export function teamActor(p: { account: { id: string }; user: { id: string; name: string; personName: string | null } | null; membershipId: string | null; role: Role }) {
  return { accountId: p.account.id, membershipId: p.membershipId, role: p.role, userId: p.user?.id ?? null, name: p.user ? personName(p.user) : "An API client" };
}
