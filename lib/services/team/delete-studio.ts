import { and, eq, inArray, ne, sql } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import {
  accounts,
  bgRemoveJobs,
  billingAutoTopUpAttempts,
  billingSubscriptions,
  faceCropTasks,
  fixJobs,
  idempotencyKeys,
  jobRuns,
  mailMessages,
  matchJobs,
  memberships,
  qrGenerations,
  qrSortTasks,
  referenceBuilds,
} from "@/lib/foundation/db/schema";
import { ApiError, badRequest, conflict, forbidden } from "@/lib/foundation/http/api-error";
import { storage } from "@/lib/domain/storage";
import { logger } from "@/lib/foundation/log/logger";
import { announceSessionsEnded } from "@/lib/domain/identity/end-sessions";
import { forgetAccount } from "@/lib/domain/identity/principal-cache";
import { assertCurrentPassword } from "@/lib/domain/identity/current-password";
import { checkSecondFactor } from "@/lib/domain/identity/two-factor";
import { personNameSql } from "@/lib/domain/identity/person-name";
import type { AccountRow } from "@/lib/domain/identity/public-account";
import { queueMail, sendQueuedMail } from "@/lib/domain/mail/send-mail";
import { studioDeletedMail } from "@/lib/domain/mail/templates";

// A studio is the login that founded it (lib/foundation/db/schema/team.ts), so deleting the
// studio deletes that login with it: every row that belongs to it goes by the
// foreign keys' ON DELETE CASCADE, its files by their `<area>/<account id>/` keys.
// The other members keep their own logins and studios; they are told by email.

export type DeleteStudioInput = { confirm_name: string; current_password: string; code?: string };

/** Refusals first, in the order a person can act on them; nothing is touched until all pass. */
async function assertDeletable(db: Db, studio: AccountRow, person: AccountRow, input: DeleteStudioInput) {
  if (studio.id !== person.id) {
    throw forbidden("NOT_THE_STUDIO_LOGIN", `${studio.name} is the login of ${studio.email}: only that person can delete it (it deletes their login too). You can leave it from the team page.`);
  }
  if (input.confirm_name.trim() !== studio.name.trim()) {
    throw badRequest("CONFIRMATION_MISMATCH", "Type the studio's name exactly to confirm.", { fields: [{ field: "confirm_name", message: `Type "${studio.name}".` }] });
  }
  await assertCurrentPassword(person, input.current_password);
  if (person.twoFactorEnabledAt) {
    if (!input.code?.trim() || !(await checkSecondFactor(db, person, input.code))) {
      throw badRequest("INVALID_TWO_FACTOR_CODE", "Two-factor sign-in is on: type a current code from the app, or a recovery code.", { fields: [{ field: "code", message: "A code is needed." }] });
    }
  }
  const soleOwnerOf = await studiosOnlyOwnedBy(db, person.id);
  if (soleOwnerOf.length > 0) {
    throw new ApiError(409, "LAST_OWNER_ELSEWHERE", `You are the only owner of ${soleOwnerOf.map((s) => s.name).join(", ")}: make someone else an owner there first.`, {
      studios: soleOwnerOf.map((s) => s.id),
    });
  }
  const [subscription] = await db
    .select({ status: billingSubscriptions.status })
    .from(billingSubscriptions)
    .where(and(eq(billingSubscriptions.accountId, studio.id), inArray(billingSubscriptions.status, ["active", "trialing", "past_due", "unpaid"])));
  if (subscription) throw conflict("SUBSCRIPTION_ACTIVE", "Premium is still billed to this studio: cancel it from Billing (Manage subscription) first, so no card is charged after the studio is gone.");
  const busy = await workInProgress(db, studio.id);
  if (busy.length > 0) {
    throw new ApiError(409, "WORK_IN_PROGRESS", `Wait for the work still running to end (${busy.join(", ")}), then delete the studio.`, { running: busy });
  }
}

/** Other studios where this login is the only owner: they would be left with none. */
async function studiosOnlyOwnedBy(db: Db, userId: string) {
  const owned = await db
    .select({ id: accounts.id, name: accounts.name })
    .from(memberships)
    .innerJoin(accounts, eq(accounts.id, memberships.accountId))
    .where(and(eq(memberships.userId, userId), eq(memberships.role, "owner"), ne(memberships.accountId, userId)));
  const result = [];
  for (const s of owned) {
    const owners = await db.select({ id: memberships.id }).from(memberships).where(and(eq(memberships.accountId, s.id), eq(memberships.role, "owner")));
    if (owners.length === 1) result.push(s);
  }
  return result;
}

/** Jobs whose engine is still at work: deleting under them would leave them writing into nothing. */
async function workInProgress(db: Db, accountId: string): Promise<string[]> {
  const checks: [string, Promise<unknown[]>][] = [
    ["background removals", db.select({ id: bgRemoveJobs.id }).from(bgRemoveJobs).where(and(eq(bgRemoveJobs.accountId, accountId), inArray(bgRemoveJobs.status, ["pending", "processing"]))).limit(1)],
    ["face crop tasks", db.select({ id: faceCropTasks.id }).from(faceCropTasks).where(and(eq(faceCropTasks.accountId, accountId), inArray(faceCropTasks.status, ["queued", "running"]))).limit(1)],
    ["AI fix jobs", db.select({ id: fixJobs.id }).from(fixJobs).where(and(eq(fixJobs.accountId, accountId), inArray(fixJobs.status, ["analyzing", "applying"]))).limit(1)],
    ["match jobs", db.select({ id: matchJobs.id }).from(matchJobs).where(and(eq(matchJobs.accountId, accountId), inArray(matchJobs.status, ["queued", "running"]))).limit(1)],
    ["reference builds", db.select({ id: referenceBuilds.id }).from(referenceBuilds).where(and(eq(referenceBuilds.accountId, accountId), inArray(referenceBuilds.status, ["queued", "running"]))).limit(1)],
    ["QR sorts", db.select({ id: qrSortTasks.id }).from(qrSortTasks).where(and(eq(qrSortTasks.accountId, accountId), inArray(qrSortTasks.status, ["queued", "running"]))).limit(1)],
    ["QR card PDFs", db.select({ id: qrGenerations.id }).from(qrGenerations).where(and(eq(qrGenerations.accountId, accountId), eq(qrGenerations.status, "processing"))).limit(1)],
    [
      "an auto top-up charge",
      db
        .select({ id: billingAutoTopUpAttempts.id })
        .from(billingAutoTopUpAttempts)
        .where(and(eq(billingAutoTopUpAttempts.accountId, accountId), inArray(billingAutoTopUpAttempts.status, ["pending", "charging"])))
        .limit(1),
    ],
  ];
  const found = await Promise.all(checks.map(async ([label, rows]) => ((await rows).length > 0 ? label : null)));
  return found.filter((x): x is string => x !== null);
}

/**
 * DELETE /v1/account: the studio, its login, its files and everything it holds.
 * Files go first: a failure there leaves the studio in place to try again, never
 * rows gone with children's photos still stored.
 */
export async function deleteStudio(db: Db, studio: AccountRow, person: AccountRow, input: DeleteStudioInput) {
  await assertDeletable(db, studio, person, input);
  const members = await db
    .select({ userId: memberships.userId, email: accounts.email, name: personNameSql })
    .from(memberships)
    .innerJoin(accounts, eq(accounts.id, memberships.userId))
    .where(and(eq(memberships.accountId, studio.id), ne(memberships.userId, studio.id)));
  const files = await storage().deleteOwnerFiles(studio.id);
  const notices = await db.transaction(async (tx) => {
    await tx.delete(accounts).where(eq(accounts.id, studio.id));
    // Not tied by a foreign key: the replay store and the embedded runner's finished runs.
    await tx.delete(idempotencyKeys).where(eq(idempotencyKeys.scope, studio.id));
    await tx.delete(jobRuns).where(sql`${jobRuns.eventData}->>'accountId' = ${studio.id}`);
    // The studio's earlier emails go with it; the notices are queued with the deletion, naming no id of it.
    await tx.delete(mailMessages).where(eq(mailMessages.accountId, studio.id));
    const told = [{ email: studio.email, name: studio.name }, ...members];
    return Promise.all(told.map((to) => queueMail(tx, studioDeletedMail(to.email, to.name, studio.name, to.email === studio.email))));
  });
  forgetAccount(studio.id);
  for (const id of [studio.id, ...members.map((m) => m.userId)]) await announceSessionsEnded(id);
  logger().info({ account_id: studio.id, files_deleted: files, members_told: members.length }, "studio deleted");
  for (const notice of notices) await sendQueuedMail(db, notice);
  return { deleted: true as const, files_deleted: files };
}
