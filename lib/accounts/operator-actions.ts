import type { Db } from "@/lib/db/types";
import { notFound } from "@/lib/http/api-error";
import { grantTokens } from "@/lib/wallet/grant-tokens";
import { toLedgerEntry } from "@/lib/wallet/ledger-entry";
import { findAccountByEmail } from "./find-account";
import { setPlanByEmail } from "./set-plan";
import { toPublicAccount } from "./public-account";

/** Shared by the operator endpoints and the CLI, so both do exactly the same thing. */
export async function operatorGrant(db: Db, input: { email: string; tokens: number; reason: string }) {
  const account = await findAccountByEmail(db, input.email);
  if (!account) throw notFound("Account");
  const row = await grantTokens(db, { accountId: account.id, amount: input.tokens, operation: "operator_grant", note: input.reason });
  return toLedgerEntry(row);
}

export async function operatorSetPlan(db: Db, input: { email: string; plan: "free" | "premium" }) {
  const account = await setPlanByEmail(db, input.email, input.plan);
  if (!account) throw notFound("Account");
  return toPublicAccount(account);
}
