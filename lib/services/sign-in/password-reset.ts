import { eq } from "drizzle-orm";
import { recordAudit } from "@/lib/domain/audit/record-audit";
import type { Db } from "@/lib/foundation/db/types";
import { accounts } from "@/lib/foundation/db/schema";
import { ApiError } from "@/lib/foundation/http/api-error";
import { appOrigin } from "@/lib/foundation/http/app-origin";
import { hashPassword, passwordWeakness } from "@/lib/domain/identity/password";
import { announceSessionsEnded, bumpCredentialsVersion } from "@/lib/domain/identity/end-sessions";
import { queueMail, sendQueuedMail } from "@/lib/domain/mail/send-mail";
import { passwordChangedMail, passwordResetMail } from "@/lib/domain/mail/templates";
import { checkAccountToken, consumeAccountToken, createAccountToken, retireAccountTokens } from "@/lib/domain/identity/one-time-tokens";
import { findAccountByEmail, findAccountById } from "@/lib/domain/identity/find-account";
import { markEmailVerified } from "@/lib/domain/identity/email-verification";
import { mayMail } from "./mail-throttle";
import type { AccountRow } from "@/lib/domain/identity/public-account";

// Requests whose email is still being sent: awaited by tests and at shutdown, never by the request.
const pending = new Set<Promise<void>>();

/**
 * POST /v1/auth/password-reset. The caller always gets the same 202, in the same
 * time: looking the address up and sending the link happen after the answer, so
 * neither the status nor the delay says whether an account has this address.
 */
export function requestPasswordReset(db: Db, email: string): void {
  const origin = appOrigin();
  const work = (async () => {
    if (!(await mayMail(email))) return;
    const account = await findAccountByEmail(db, email);
    if (!account) return;
    const queued = await db.transaction(async (tx) => {
      const token = await createAccountToken(tx, { accountId: account.id, purpose: "password_reset", email: account.email });
      return queueMail(tx, passwordResetMail(account.email, account.name, `${origin}/reset-password?token=${token}`), { accountId: account.id });
    });
    await sendQueuedMail(db, queued);
  })()
    .catch((err: Error) => console.warn(`[auth] a password reset email could not be sent: ${err.message}`))
    .finally(() => pending.delete(work));
  pending.add(work);
}

/** Tests: wait until every reset email asked for so far is sent. */
export async function settlePasswordResets(): Promise<void> {
  await Promise.all([...pending]);
}

/** Sets a new password, ends every session (access tokens, cookies) and tells the address. */
export async function setPassword(db: Db, account: AccountRow, password: string, extra?: (tx: Db) => Promise<void>): Promise<AccountRow> {
  const weakness = passwordWeakness(password, account.email);
  if (weakness) throw new ApiError(400, "WEAK_PASSWORD", `Password too weak: ${weakness}`, { fields: [{ field: "password", message: weakness }] });
  const passwordHash = await hashPassword(password);
  const notice = await db.transaction(async (tx) => {
    await extra?.(tx);
    await tx.update(accounts).set({ passwordHash }).where(eq(accounts.id, account.id));
    // In the person's own studio's log: it is about their login, whichever studios they belong to.
    await recordAudit(tx, { accountId: account.id, action: extra ? "account.password_reset" : "account.password_changed", target: account.id, actor: { type: "member", id: account.id, name: account.name } });
    await bumpCredentialsVersion(tx, account.id);
    await retireAccountTokens(tx, account.id, "password_reset");
    return queueMail(tx, passwordChangedMail(account.email, account.name, new Date()), { accountId: account.id });
  });
  await announceSessionsEnded(account.id);
  await sendQueuedMail(db, notice);
  return (await findAccountById(db, account.id))!;
}

/** POST /v1/auth/password-reset/confirm. The link proves the mailbox too, so an unconfirmed address becomes confirmed. */
export async function confirmPasswordReset(db: Db, token: string, password: string): Promise<AccountRow> {
  // Checked first so a bad link says so before the password is judged; used in the transaction that sets it.
  const link = await checkAccountToken(db, token, "password_reset");
  const account = await findAccountById(db, link.accountId);
  if (!account) throw new ApiError(400, "TOKEN_INVALID", "This link is not valid. Ask for a new one.");
  return setPassword(db, account, password, async (tx) => {
    await consumeAccountToken(tx, token, "password_reset");
    await markEmailVerified(tx, account.id);
  });
}
