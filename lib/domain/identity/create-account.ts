import type { Db } from "@/lib/foundation/db/types";
import { accounts, memberships, wallets } from "@/lib/foundation/db/schema";
import { isUniqueViolation } from "@/lib/foundation/db/errors";
import { ApiError, conflict } from "@/lib/foundation/http/api-error";
import { hashPassword, passwordWeakness } from "@/lib/domain/identity/password";
import { newId } from "@/lib/foundation/ids";
import { findAccountById } from "./find-account";
import { markEmailVerified } from "./email-verification";
import { normalizeEmail, type AccountRow } from "./public-account";

/**
 * A new account with its wallet, in one transaction. Its address is unconfirmed
 * and its wallet empty: the sign-up bonus comes with the confirmation
 * (lib/domain/identity/email-verification.ts; POST /v1/auth/register sends the link).
 * `verified` is for an address known to be real (the demo account, a test
 * harness that stands for a user who followed the link): it is confirmed through
 * the same step, with `signupTokens` as its bonus.
 * `ownStudio: false` is a login made by accepting an invitation: it joins that
 * studio only, with no studio (and no sign-up bonus) of its own; only a person
 * who signs up gets a studio.
 */
export async function createAccount(
  db: Db,
  input: { email: string; password: string; name: string; plan?: "free" | "premium"; verified?: boolean; signupTokens?: number; ownStudio?: boolean },
): Promise<AccountRow> {
  const email = normalizeEmail(input.email);
  const weakness = passwordWeakness(input.password, email);
  if (weakness) {
    throw new ApiError(400, "WEAK_PASSWORD", `Password too weak: ${weakness}`, {
      fields: [{ field: "password", message: weakness }],
    });
  }
  const passwordHash = await hashPassword(input.password);
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(accounts)
        .values({ id: newId("acc"), email, name: input.name.trim(), passwordHash, plan: input.plan ?? "free" })
        .returning();
      await tx.insert(wallets).values({ accountId: row!.id, balance: 0 });
      // The login is its own studio's first owner (lib/foundation/db/schema/team.ts).
      const ownStudio = input.ownStudio !== false;
      if (ownStudio) await tx.insert(memberships).values({ id: newId("mem"), accountId: row!.id, userId: row!.id, role: "owner" });
      if (!input.verified) return row!;
      await markEmailVerified(tx, row!.id, ownStudio ? input.signupTokens : 0);
      return (await findAccountById(tx, row!.id))!;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict("EMAIL_TAKEN", "An account with this email already exists.");
    throw err;
  }
}
