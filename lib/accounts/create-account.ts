import type { Db } from "@/lib/db/types";
import { accounts, wallets } from "@/lib/db/schema";
import { isUniqueViolation } from "@/lib/db/errors";
import { config } from "@/lib/config";
import { ApiError, conflict } from "@/lib/http/api-error";
import { hashPassword, passwordWeakness } from "@/lib/auth/password";
import { grantTokens } from "@/lib/wallet/grant-tokens";
import { newId } from "@/lib/ids";
import { normalizeEmail, type AccountRow } from "./public-account";

/** A new account with its wallet and sign-up tokens, all in one transaction. */
export async function createAccount(
  db: Db,
  input: { email: string; password: string; name: string; plan?: "free" | "premium"; signupTokens?: number },
): Promise<AccountRow> {
  const email = normalizeEmail(input.email);
  const weakness = passwordWeakness(input.password, email);
  if (weakness) {
    throw new ApiError(400, "WEAK_PASSWORD", `Password too weak: ${weakness}`, {
      fields: [{ field: "password", message: weakness }],
    });
  }
  const passwordHash = await hashPassword(input.password);
  const tokens = input.signupTokens ?? config().SIGNUP_BONUS_TOKENS;
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(accounts)
        .values({ id: newId("acc"), email, name: input.name.trim(), passwordHash, plan: input.plan ?? "free" })
        .returning();
      await tx.insert(wallets).values({ accountId: row!.id, balance: 0 });
      if (tokens > 0) await grantTokens(tx, { accountId: row!.id, amount: tokens, operation: "signup_bonus", note: "Tokens for a new account" });
      return row!;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict("EMAIL_TAKEN", "An account with this email already exists.");
    throw err;
  }
}
