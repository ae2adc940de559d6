import type { Db } from "@/lib/foundation/db/types";
import { findAccountById } from "@/lib/domain/identity/find-account";
import { accountTokenState, type AccountTokenState, type TokenPurpose } from "@/lib/domain/identity/one-time-tokens";

/** What an emailed link's page shows before anything is pressed (client-safe shape). */
export type EmailLinkState = { state: AccountTokenState; alreadyConfirmed: boolean };

/**
 * The state of a password-reset or address-confirmation link, read on its page's
 * load (never using it up). For a confirmation link that can no longer be used,
 * `alreadyConfirmed` says whether its address is the account's confirmed one now:
 * then there is nothing left to do, rather than a new link to ask for.
 */
export async function describeEmailLink(db: Db, token: string, purpose: TokenPurpose): Promise<EmailLinkState> {
  const { state, row } = await accountTokenState(db, token, purpose);
  if (state === "valid" || state === "invalid" || purpose !== "email_verification" || !row) return { state, alreadyConfirmed: false };
  const account = await findAccountById(db, row.accountId);
  return { state, alreadyConfirmed: Boolean(account?.emailVerifiedAt && account.email === row.email) };
}
