import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db/types";
import { accounts } from "@/lib/db/schema";
import { logger } from "@/lib/log/logger";
import { forgetAccount } from "@/lib/auth/principal-cache";
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

/** Lifts ACCOUNT_ON_HOLD once the operator has settled the unpaid tokens with the customer. */
export async function operatorReleaseHold(db: Db, input: { email: string; reason: string }) {
  const account = await findAccountByEmail(db, input.email);
  if (!account) throw notFound("Account");
  const [row] = await db.update(accounts).set({ holdReason: null, heldAt: null }).where(eq(accounts.id, account.id)).returning();
  forgetAccount(account.id);
  logger().info({ account: account.id, was: account.holdReason, reason: input.reason }, "operator released an account hold");
  return toPublicAccount(row!);
}
