import { and, eq, inArray, isNull } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { accounts, memberships } from "@/lib/foundation/db/schema";
import { ApiError } from "@/lib/foundation/http/api-error";
import { appOrigin } from "@/lib/foundation/http/app-origin";
import { recordAudit } from "@/lib/domain/audit/record-audit";
import { forgetAccount } from "@/lib/domain/identity/principal-cache";
import { personNameSql } from "@/lib/domain/identity/person-name";
import type { AccountRow } from "@/lib/domain/identity/public-account";
import { sendMail } from "@/lib/domain/mail/send-mail";
import { twoFactorRequiredMail } from "@/lib/domain/mail/templates";

/** Owners and admins of the studio who sign in with a password alone. */
async function membersWithoutTwoFactor(db: Db, studioId: string) {
  return db
    .select({ member_id: memberships.id, name: personNameSql, email: accounts.email, role: memberships.role })
    .from(memberships)
    .innerJoin(accounts, eq(accounts.id, memberships.userId))
    .where(and(eq(memberships.accountId, studioId), inArray(memberships.role, ["owner", "admin"]), isNull(accounts.twoFactorEnabledAt)));
}

type Shown = { member_id: string; name: string; email: string; role: "owner" | "admin" };

/** GET /v1/account/two-factor-requirement. */
export async function twoFactorRequirement(db: Db, studio: AccountRow) {
  return { required: studio.requireTwoFactor, members_without_two_factor: (await membersWithoutTwoFactor(db, studio.id)) as Shown[] };
}

/**
 * PUT /v1/account/two-factor-requirement (owners). Turning it on needs the owner's
 * own two-factor first (else they would shut themselves out); the owners and admins
 * still without it are emailed the way to turn it on.
 */
export async function setTwoFactorRequirement(db: Db, studio: AccountRow, owner: AccountRow, required: boolean) {
  if (required && !owner.twoFactorEnabledAt) {
    throw new ApiError(409, "TWO_FACTOR_NOT_ON", "Turn on your own two-factor sign-in first (account page): a studio that requires it would otherwise shut you out.", {
      fields: [{ field: "required", message: "Your own two-factor sign-in is off." }],
    });
  }
  if (studio.requireTwoFactor !== required) {
    await db.transaction(async (tx) => {
      await tx.update(accounts).set({ requireTwoFactor: required }).where(eq(accounts.id, studio.id));
      await recordAudit(tx, { accountId: studio.id, action: "studio.two_factor_requirement_changed", target: studio.id, data: { required } });
    });
    forgetAccount(studio.id);
    if (required) {
      const url = `${appOrigin()}/account#two-factor`;
      for (const m of await membersWithoutTwoFactor(db, studio.id)) {
        await sendMail(db, twoFactorRequiredMail(m.email, m.name, studio.name, url), { accountId: studio.id });
      }
    }
  }
  return twoFactorRequirement(db, { ...studio, requireTwoFactor: required });
}
