import { and, eq, isNull, sql } from "drizzle-orm";
import { recordAudit } from "@/lib/domain/audit/record-audit";
import type { Db } from "@/lib/foundation/db/types";
import { accounts } from "@/lib/foundation/db/schema";
import { config } from "@/lib/foundation/config";
import { conflict, ApiError } from "@/lib/foundation/http/api-error";
import { appOrigin } from "@/lib/foundation/http/app-origin";
import { isUniqueViolation } from "@/lib/foundation/db/errors";
import { grantTokens } from "@/lib/domain/wallet/grant-tokens";
import { forgetAccount } from "@/lib/domain/identity/principal-cache";
import { queueMail, sendQueuedMail, type MailStatus } from "@/lib/domain/mail/send-mail";
import { addressChangedMail, confirmNewAddressMail, verifyAddressMail } from "@/lib/domain/mail/templates";
import { consumeAccountToken, createAccountToken, retireAccountTokens } from "./one-time-tokens";
import { findAccountById } from "./find-account";
import type { AccountRow } from "./public-account";

/**
 * Marks the address confirmed. The first confirmation grants the sign-up bonus
 * (so throwaway addresses do not farm tokens); the `email_verified_at IS NULL`
 * guard makes it exactly once, whatever runs at the same time.
 */
export async function markEmailVerified(tx: Db, accountId: string, bonusTokens = config().SIGNUP_BONUS_TOKENS): Promise<boolean> {
  const [first] = await tx
    .update(accounts)
    .set({ emailVerifiedAt: sql`now()` })
    .where(and(eq(accounts.id, accountId), isNull(accounts.emailVerifiedAt)))
    .returning({ id: accounts.id });
  if (first && bonusTokens > 0) await grantTokens(tx, { accountId, amount: bonusTokens, operation: "signup_bonus", note: "Tokens for a new account, on confirming its address" });
  return Boolean(first);
}

/**
 * Sends a confirmation link for `email` (the account's address, or the new one it
 * asked to change to). The link and its message are written together; with the
 * mail server down the message is `pending` and retried (lib/domain/mail).
 */
export async function sendVerificationLink(db: Db, account: AccountRow, email = account.email): Promise<MailStatus> {
  const url = (token: string) => `${appOrigin()}/verify-email?token=${token}`;
  const queued = await db.transaction(async (tx) => {
    const token = await createAccountToken(tx, { accountId: account.id, purpose: "email_verification", email });
    return queueMail(tx, email === account.email ? verifyAddressMail(email, account.name, url(token)) : confirmNewAddressMail(email, account.name, url(token)), { accountId: account.id });
  });
  return sendQueuedMail(db, queued);
}

/** POST /v1/auth/email-verification (signed in): a new link, unless the address is already confirmed. */
export async function resendVerification(db: Db, account: AccountRow): Promise<MailStatus> {
  if (account.emailVerifiedAt) throw conflict("EMAIL_ALREADY_VERIFIED", "This address is already confirmed.");
  return sendVerificationLink(db, account);
}

/**
 * POST /v1/auth/email-verification/confirm: the link proves the mailbox. For the
 * account's own address it confirms it (and grants the bonus the first time); for
 * a new address it replaces the old one, which is told.
 */
export async function confirmEmailVerification(db: Db, token: string): Promise<AccountRow> {
  let notice: { id: string; queued: boolean } | undefined;
  const account = await db
    .transaction(async (tx) => {
      const used = await consumeAccountToken(tx, token, "email_verification");
      const current = await findAccountById(tx, used.accountId);
      if (!current) throw new ApiError(400, "TOKEN_INVALID", "This link is not valid. Ask for a new one.");
      if (used.email !== current.email) {
        await tx.update(accounts).set({ email: used.email }).where(eq(accounts.id, current.id));
        notice = await queueMail(tx, addressChangedMail(current.email, current.name, used.email), { accountId: current.id });
        // Other open links for the old address (or an older new one) no longer mean anything.
        await retireAccountTokens(tx, current.id, "email_verification");
        await retireAccountTokens(tx, current.id, "password_reset");
        await recordAudit(tx, { accountId: current.id, action: "account.email_changed", target: current.id, data: { from: current.email, to: used.email }, actor: { type: "member", id: current.id, name: current.name } });
      }
      await markEmailVerified(tx, current.id);
      return (await findAccountById(tx, current.id))!;
    })
    .catch((err: unknown) => {
      if (isUniqueViolation(err)) throw conflict("EMAIL_TAKEN", "Another account uses this address now.");
      throw err;
    });
  forgetAccount(account.id);
  if (notice) await sendQueuedMail(db, notice);
  return account;
}
