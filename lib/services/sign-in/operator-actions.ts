import { eq } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { accounts } from "@/lib/foundation/db/schema";
import { logger } from "@/lib/foundation/log/logger";
import { forgetAccount } from "@/lib/domain/identity/principal-cache";
import { notFound } from "@/lib/foundation/http/api-error";
import { grantTokens } from "@/lib/domain/wallet/grant-tokens";
import { toLedgerEntry } from "@/lib/domain/wallet/ledger-entry";
import { findAccountByEmail } from "@/lib/domain/identity/find-account";
import { setPlanByEmail } from "@/lib/domain/identity/set-plan";
import { toPublicAccount } from "@/lib/domain/identity/public-account";

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

/** Lifts ACCOUNT_ON_HOLD once the operator has settled the unpaid tokens with the customer. */
export async function operatorReleaseHold(db: Db, input: { email: string; reason: string }) {
  const account = await findAccountByEmail(db, input.email);
  if (!account) throw notFound("Account");
  const [row] = await db.update(accounts).set({ holdReason: null, heldAt: null }).where(eq(accounts.id, account.id)).returning();
  forgetAccount(account.id);
  logger().info({ account: account.id, was: account.holdReason, reason: input.reason }, "operator released an account hold");
  return toPublicAccount(row!);
}
