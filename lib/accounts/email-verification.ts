import { and, eq, isNull, sql } from "drizzle-orm";
import { recordAudit } from "@/lib/audit/record-audit";
import type { Db } from "@/lib/db/types";
import { accounts } from "@/lib/db/schema";
import { config } from "@/lib/config";
import { conflict, ApiError } from "@/lib/http/api-error";
import { appOrigin } from "@/lib/http/app-origin";
import { isUniqueViolation } from "@/lib/db/errors";
import { grantTokens } from "@/lib/wallet/grant-tokens";
import { forgetAccount } from "@/lib/auth/principal-cache";
import { sendMail } from "@/lib/mail/send-mail";
import { addressChangedMail, confirmNewAddressMail, verifyAddressMail } from "@/lib/mail/templates";
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

/** Sends a confirmation link for `email` (the account's address, or the new one it asked to change to). */
export async function sendVerificationLink(db: Db, account: AccountRow, email = account.email): Promise<void> {
  const token = await createAccountToken(db, { accountId: account.id, purpose: "email_verification", email });
  const url = `${appOrigin()}/verify-email?token=${token}`;
  await sendMail(email === account.email ? verifyAddressMail(email, account.name, url) : confirmNewAddressMail(email, account.name, url));
}

/** POST /v1/auth/email-verification (signed in): a new link, unless the address is already confirmed. */
export async function resendVerification(db: Db, account: AccountRow): Promise<{ sent: boolean }> {
  if (account.emailVerifiedAt) throw conflict("EMAIL_ALREADY_VERIFIED", "This address is already confirmed.");
  await sendVerificationLink(db, account);
  return { sent: true };
}

/**
 * POST /v1/auth/email-verification/confirm: the link proves the mailbox. For the
 * account's own address it confirms it (and grants the bonus the first time); for
 * a new address it replaces the old one, which is told.
 */
export async function confirmEmailVerification(db: Db, token: string): Promise<AccountRow> {
  let oldAddress: string | undefined;
  const account = await db
    .transaction(async (tx) => {
      const used = await consumeAccountToken(tx, token, "email_verification");
      const current = await findAccountById(tx, used.accountId);
      if (!current) throw new ApiError(400, "TOKEN_INVALID", "This link is not valid. Ask for a new one.");
      if (used.email !== current.email) {
        oldAddress = current.email;
        await tx.update(accounts).set({ email: used.email }).where(eq(accounts.id, current.id));
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
  if (oldAddress) await sendMail(addressChangedMail(oldAddress, account.name, account.email)).catch((err: Error) => console.warn(`[mail] the change notice to the old address failed: ${err.message}`));
  return account;
}
