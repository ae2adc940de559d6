import type { Db } from "@/lib/db/types";
import { recordAudit } from "@/lib/audit/record-audit";
import { findAccountByEmail } from "./find-account";
import type { AccountRow } from "./public-account";

/**
 * A sign-in, or a wrong password for a known address, in the person's own
 * studio's audit log. Unknown addresses leave no line (there is no studio to tell).
 */
export async function auditSignIn(db: Db, input: { email: string; account: AccountRow | null; channel: "studio" | "api"; ip?: string | null }): Promise<void> {
  const account = input.account ?? (await findAccountByEmail(db, input.email));
  if (!account) return;
  await recordAudit(db, {
    accountId: account.id,
    action: input.account ? "auth.sign_in" : "auth.sign_in_failed",
    target: account.id,
    data: { channel: input.channel },
    actor: { type: "member", id: account.id, name: account.name },
    ip: input.ip,
  });
}
