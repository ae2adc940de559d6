import type { Db } from "@/lib/foundation/db/types";
import { recordAudit } from "@/lib/domain/audit/record-audit";
import { findAccountByEmail } from "@/lib/domain/identity/find-account";
import type { AccountRow } from "@/lib/domain/identity/public-account";
import { personName } from "@/lib/domain/identity/person-name";

/**
 * A sign-in, or a wrong password or second-factor code for a known address, in the
 * person's own studio's audit log. Unknown addresses leave no line (there is no studio to tell).
 */
export async function auditSignIn(
  db: Db,
  input: {
    email: string;
    /** Whose login it is, when known (a wrong password has none: it is looked up by the address). */
    account: AccountRow | null;
    outcome: "signed_in" | "failed";
    channel: "studio" | "api";
    ip?: string | null;
    reason?: "two_factor_code";
    secondFactor?: "totp" | "recovery_code" | null;
  },
): Promise<void> {
  const account = input.account ?? (await findAccountByEmail(db, input.email));
  if (!account) return;
  const data: Record<string, unknown> = { channel: input.channel };
  if (input.reason) data.reason = input.reason;
  if (input.secondFactor) data.second_factor = input.secondFactor;
  await recordAudit(db, {
    accountId: account.id,
    action: input.outcome === "signed_in" ? "auth.sign_in" : "auth.sign_in_failed",
    target: account.id,
    data,
    actor: { type: "member", id: account.id, name: personName(account) },
    ip: input.ip,
  });
}
