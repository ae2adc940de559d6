import { eq } from "drizzle-orm";
import { recordAudit } from "@/lib/domain/audit/record-audit";
import type { Db } from "@/lib/foundation/db/types";
import { accounts } from "@/lib/foundation/db/schema";
import { forgetAccount } from "@/lib/domain/identity/principal-cache";
import { normalizeEmail, type AccountRow } from "./public-account";

/** Changes an account's plan; the next request sees it (the cached principal is dropped). */
export async function setPlan(db: Db, accountId: string, plan: "free" | "premium"): Promise<AccountRow | undefined> {
  const row = await db.transaction(async (tx) => {
    const [before] = await tx.select({ plan: accounts.plan }).from(accounts).where(eq(accounts.id, accountId)).for("update");
    const [row] = await tx.update(accounts).set({ plan }).where(eq(accounts.id, accountId)).returning();
    if (row && before?.plan !== plan) await recordAudit(tx, { accountId, action: "billing.plan_changed", target: accountId, data: { from: before?.plan, to: plan } });
    return row;
  });
  if (row) forgetAccount(row.id);
  return row;
}

export async function setPlanByEmail(db: Db, email: string, plan: "free" | "premium"): Promise<AccountRow | undefined> {
  const [row] = await db.update(accounts).set({ plan }).where(eq(accounts.email, normalizeEmail(email))).returning();
  if (row) forgetAccount(row.id);
  return row;
}
