import { eq } from "drizzle-orm";
import { recordAudit } from "@/lib/domain/audit/record-audit";
import type { Db } from "@/lib/foundation/db/types";
import { accounts } from "@/lib/foundation/db/schema";
import { badRequest, conflict } from "@/lib/foundation/http/api-error";
import { issueAccessToken } from "@/lib/domain/identity/access-token";
import { forgetAccount } from "@/lib/domain/identity/principal-cache";
import { sendMail } from "@/lib/domain/mail/send-mail";
import { addressChangeRequestedMail } from "@/lib/domain/mail/templates";
import { findAccountByEmail } from "@/lib/domain/identity/find-account";
import { sendVerificationLink } from "@/lib/domain/identity/email-verification";
import { setPassword } from "./password-reset";
import { startApiSession } from "./issue-token";
import { assertCurrentPassword } from "@/lib/domain/identity/current-password";
import { normalizeEmail, type AccountRow } from "@/lib/domain/identity/public-account";

/** PATCH /v1/account: the studio's name (the name every email greets). */
export async function renameAccount(db: Db, accountId: string, name: string): Promise<AccountRow> {
  const row = await db.transaction(async (tx) => {
    const [row] = await tx.update(accounts).set({ name: name.trim() }).where(eq(accounts.id, accountId)).returning();
    await recordAudit(tx, { accountId, action: "account.renamed", target: accountId, data: { name: row!.name } });
    return row;
  });
  forgetAccount(accountId);
  return row!;
}

/**
 * POST /v1/account/password: every session ends, this caller's too; the answer
 * carries a new access token for it (the studio signs in again with the new password).
 */
export async function changePassword(db: Db, account: AccountRow, input: { current_password: string; new_password: string }) {
  await assertCurrentPassword(account, input.current_password);
  const updated = await setPassword(db, account, input.new_password);
  const { token, expiresIn } = await issueAccessToken(updated, await startApiSession(db, updated.id));
  return { access_token: token, token_type: "Bearer" as const, expires_in: expiresIn };
}

/**
 * POST /v1/account/email: the new address gets a link and replaces the old one
 * only when it is followed (POST /v1/auth/email-verification/confirm); the old
 * address is told now, and again when the change happens.
 */
export async function requestEmailChange(db: Db, account: AccountRow, input: { email: string; current_password: string }) {
  const email = normalizeEmail(input.email);
  if (email === account.email) throw badRequest("SAME_EMAIL", "This is already the account's address.", { fields: [{ field: "email", message: "Same as the current address." }] });
  await assertCurrentPassword(account, input.current_password);
  if (await findAccountByEmail(db, email)) throw conflict("EMAIL_TAKEN", "An account with this email already exists.");
  await sendVerificationLink(db, account, email);
  await sendMail(db, addressChangeRequestedMail(account.email, account.name, email), { accountId: account.id });
  return { pending_email: email };
}

/**
 * PATCH /v1/account/profile: the person's own name, as their studios see it (team,
 * ledger, audit log), apart from the name of the login's own studio.
 */
export async function renamePerson(db: Db, user: AccountRow, name: string) {
  const trimmed = name.trim();
  await db.update(accounts).set({ personName: trimmed }).where(eq(accounts.id, user.id));
  forgetAccount(user.id);
  return { user_id: user.id, name: trimmed, email: user.email };
}
