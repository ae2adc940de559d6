import { and, eq, isNull, lt, or } from "drizzle-orm";
import QRCode from "qrcode";
import type { Db } from "@/lib/foundation/db/types";
import { accounts, memberships } from "@/lib/foundation/db/schema";
import { ApiError, conflict } from "@/lib/foundation/http/api-error";
import { recordAudit } from "@/lib/domain/audit/record-audit";
import { forgetAccount } from "@/lib/domain/identity/principal-cache";
import { checkTotp, newTotpSecret, openSecret, sealSecret, totpUri } from "@/lib/domain/identity/totp";
import { sendMail } from "@/lib/domain/mail/send-mail";
import { recoveryCodeUsedMail, twoFactorChangedMail } from "@/lib/domain/mail/templates";
import { assertCurrentPassword } from "./current-password";
import { findAccountById } from "./find-account";
import type { AccountRow } from "./public-account";
import { personName } from "./person-name";
import { deleteRecoveryCodes, recoveryCodesLeft, replaceRecoveryCodes, spendRecoveryCode } from "./recovery-codes";

// Two-factor sign-in for a person's login (not a studio setting: a login that
// belongs to several studios has one authenticator). Sign-in and POST /v1/auth/token
// ask for the code after the password (lib/services/sign-in/sign-in.ts).

const codeField = (message: string) => new ApiError(400, "INVALID_TWO_FACTOR_CODE", message, { fields: [{ field: "code", message }] });
const self = (user: AccountRow) => ({ type: "member" as const, id: user.id, name: personName(user) });

export async function twoFactorStatus(db: Db, user: AccountRow) {
  return {
    enabled: user.twoFactorEnabledAt !== null,
    enabled_at: user.twoFactorEnabledAt?.toISOString() ?? null,
    recovery_codes_left: user.twoFactorEnabledAt ? await recoveryCodesLeft(db, user.id) : 0,
    /** Studios where this person is an owner or admin and two-factor is required. */
    required_by: (await studiosRequiringTwoFactor(db, user.id)).map((s) => ({ id: s.id, name: s.name })),
  };
}

/**
 * Step 1: a new secret for the app to scan (kept pending: nothing changes until a
 * code from the app proves it was scanned). Needs the password, so a borrowed
 * session cannot bind the login to someone else's phone.
 */
export async function beginTwoFactorSetup(db: Db, user: AccountRow, currentPassword: string) {
  if (user.twoFactorEnabledAt) throw conflict("TWO_FACTOR_ALREADY_ON", "Two-factor sign-in is already on. Turn it off first to move it to another app.");
  await assertCurrentPassword(user, currentPassword);
  const secret = newTotpSecret();
  await db.update(accounts).set({ twoFactorPendingSecret: sealSecret(secret) }).where(eq(accounts.id, user.id));
  forgetAccount(user.id);
  const uri = totpUri(secret, user.email);
  const svg = await QRCode.toString(uri, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
  return { secret, otpauth_uri: uri, qr_code: `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}` };
}

/** Step 2: the first code from the app turns it on; the recovery codes are shown this once. */
export async function confirmTwoFactorSetup(db: Db, signedIn: AccountRow, code: string) {
  // The row as stored: the pending secret may have been written a moment ago by another instance.
  const user = await reloadLogin(db, signedIn);
  if (user.twoFactorEnabledAt) throw conflict("TWO_FACTOR_ALREADY_ON", "Two-factor sign-in is already on.");
  if (!user.twoFactorPendingSecret) throw conflict("TWO_FACTOR_NOT_STARTED", "Start the setup first (POST /v1/account/two-factor).");
  const secret = openSecret(user.twoFactorPendingSecret);
  const step = await checkTotp(secret, code.trim(), null);
  if (step === null) throw codeField("That code does not match: type the 6 digits the app shows now.");
  const codes = await db.transaction(async (tx) => {
    await tx
      .update(accounts)
      .set({ twoFactorSecret: user.twoFactorPendingSecret, twoFactorPendingSecret: null, twoFactorEnabledAt: new Date(), twoFactorLastStep: step })
      .where(eq(accounts.id, user.id));
    await recordAudit(tx, { accountId: user.id, action: "account.two_factor_enabled", target: user.id, actor: self(user) });
    return replaceRecoveryCodes(tx, user.id);
  });
  forgetAccount(user.id);
  await sendMail(db, twoFactorChangedMail(user.email, personName(user), true), { accountId: user.id });
  return { enabled: true, recovery_codes: codes };
}

/** Off needs the password and a code (or a recovery code): a session alone is not enough to weaken a login. */
export async function disableTwoFactor(db: Db, signedIn: AccountRow, input: { current_password: string; code: string }) {
  const user = await reloadLogin(db, signedIn);
  if (!user.twoFactorEnabledAt) throw conflict("TWO_FACTOR_NOT_ON", "Two-factor sign-in is not on.");
  const requiring = await studiosRequiringTwoFactor(db, user.id);
  if (requiring.length > 0) {
    throw new ApiError(409, "TWO_FACTOR_REQUIRED_BY_STUDIO", `${requiring.map((s) => s.name).join(", ")} require${requiring.length === 1 ? "s" : ""} two-factor sign-in of owners and admins.`, {
      studios: requiring.map((s) => s.id),
    });
  }
  await assertCurrentPassword(user, input.current_password);
  if (!(await checkSecondFactor(db, user, input.code))) throw codeField("That code does not match: a code from the app, or an unused recovery code.");
  await db.transaction(async (tx) => {
    await tx
      .update(accounts)
      .set({ twoFactorSecret: null, twoFactorPendingSecret: null, twoFactorEnabledAt: null, twoFactorLastStep: null })
      .where(eq(accounts.id, user.id));
    await deleteRecoveryCodes(tx, user.id);
    await recordAudit(tx, { accountId: user.id, action: "account.two_factor_disabled", target: user.id, actor: self(user) });
  });
  forgetAccount(user.id);
  await sendMail(db, twoFactorChangedMail(user.email, personName(user), false), { accountId: user.id });
  return { enabled: false };
}

/** A new set of recovery codes (the old ones stop working), behind the password. */
export async function regenerateRecoveryCodes(db: Db, user: AccountRow, currentPassword: string) {
  if (!user.twoFactorEnabledAt) throw conflict("TWO_FACTOR_NOT_ON", "Two-factor sign-in is not on.");
  await assertCurrentPassword(user, currentPassword);
  const codes = await db.transaction(async (tx) => {
    await recordAudit(tx, { accountId: user.id, action: "account.recovery_codes_replaced", target: user.id, actor: self(user) });
    return replaceRecoveryCodes(tx, user.id);
  });
  return { recovery_codes: codes };
}

/**
 * A code typed at sign-in: a TOTP code for a step after the last one used (the
 * step is claimed with a conditional UPDATE, so two requests racing with one code
 * get one sign-in), or an unused recovery code. The method, or null.
 */
export async function checkSecondFactor(db: Db, user: AccountRow, typed: string): Promise<"totp" | "recovery_code" | null> {
  if (!user.twoFactorSecret) return null;
  const code = typed.trim().replace(/\s/g, "");
  if (/^\d{6}$/.test(code)) {
    const step = await checkTotp(openSecret(user.twoFactorSecret), code, user.twoFactorLastStep);
    if (step === null) return null;
    const claimed = await db
      .update(accounts)
      .set({ twoFactorLastStep: step })
      .where(and(eq(accounts.id, user.id), or(isNull(accounts.twoFactorLastStep), lt(accounts.twoFactorLastStep, step))))
      .returning({ id: accounts.id });
    forgetAccount(user.id);
    return claimed.length === 1 ? "totp" : null;
  }
  if (!(await spendRecoveryCode(db, user.id, code))) return null;
  const left = await recoveryCodesLeft(db, user.id);
  await sendMail(db, recoveryCodeUsedMail(user.email, personName(user), left), { accountId: user.id });
  return "recovery_code";
}

/** Studios that require two-factor where this login is an owner or admin. */
export async function studiosRequiringTwoFactor(db: Db, userId: string): Promise<{ id: string; name: string }[]> {
  const rows = await db
    .select({ id: accounts.id, name: accounts.name, role: memberships.role })
    .from(memberships)
    .innerJoin(accounts, eq(accounts.id, memberships.accountId))
    .where(and(eq(memberships.userId, userId), eq(accounts.requireTwoFactor, true)));
  return rows.filter((r) => r.role === "owner" || r.role === "admin").map(({ id, name }) => ({ id, name }));
}

/** The login again, after a change made here (the caller's principal holds the row it authenticated with). */
export async function reloadLogin(db: Db, user: AccountRow): Promise<AccountRow> {
  return (await findAccountById(db, user.id)) ?? user;
}
