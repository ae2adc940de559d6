import crypto from "node:crypto";
import { and, eq, isNull, lt, sql } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { accountTokens } from "@/lib/foundation/db/schema";
import { ApiError } from "@/lib/foundation/http/api-error";
import { newId } from "@/lib/foundation/ids";

export type TokenPurpose = (typeof accountTokens.$inferSelect)["purpose"];
export type AccountTokenRow = typeof accountTokens.$inferSelect;

export const TOKEN_TTL_MS: Record<TokenPurpose, number> = { password_reset: 3600_000, email_verification: 24 * 3600_000 };

const hashToken = (token: string) => crypto.createHash("sha256").update(token).digest("hex");

/** A new single-use link token (256 random bits); only its hash is stored. */
export async function createAccountToken(db: Db, input: { accountId: string; purpose: TokenPurpose; email: string }): Promise<string> {
  const token = crypto.randomBytes(32).toString("base64url");
  await db.insert(accountTokens).values({
    id: newId("atk"),
    accountId: input.accountId,
    purpose: input.purpose,
    tokenHash: hashToken(token),
    email: input.email,
    expiresAt: new Date(Date.now() + TOKEN_TTL_MS[input.purpose]),
  });
  return token;
}

export type AccountTokenState = "valid" | "used" | "expired" | "invalid";

/**
 * What a link is now, without using it: its page reads this on load to show
 * what happened to a used or expired link instead of a form that cannot work.
 * A link retired by a newer one (or by the change it was for) counts as used.
 */
export async function accountTokenState(db: Db, token: string, purpose: TokenPurpose): Promise<{ state: AccountTokenState; row: AccountTokenRow | null }> {
  const [row] = token ? await db.select().from(accountTokens).where(eq(accountTokens.tokenHash, hashToken(token))) : [];
  if (!row || row.purpose !== purpose) return { state: "invalid", row: null };
  if (row.usedAt) return { state: "used", row };
  if (row.expiresAt.getTime() <= Date.now()) return { state: "expired", row };
  return { state: "valid", row };
}

const REFUSALS: Record<Exclude<AccountTokenState, "valid">, () => ApiError> = {
  invalid: () => new ApiError(400, "TOKEN_INVALID", "This link is not valid. Ask for a new one.", { fields: [{ field: "token", message: "Unknown or altered token." }] }),
  used: () => new ApiError(400, "TOKEN_USED", "This link was already used. Ask for a new one.", { fields: [{ field: "token", message: "Already used." }] }),
  expired: () => new ApiError(400, "TOKEN_EXPIRED", "This link has expired. Ask for a new one.", { fields: [{ field: "token", message: "Expired." }] }),
};

/**
 * The link's row if it can still be used; an unknown or altered token, one of
 * another purpose, a used one and an expired one each get their own 400 code.
 */
export async function checkAccountToken(db: Db, token: string, purpose: TokenPurpose): Promise<AccountTokenRow> {
  const { state, row } = await accountTokenState(db, token, purpose);
  if (state !== "valid") throw REFUSALS[state]();
  return row!;
}

/** Uses a link token once, inside the caller's transaction (so a change that fails leaves it usable). */
export async function consumeAccountToken(tx: Db, token: string, purpose: TokenPurpose): Promise<AccountTokenRow> {
  const row = await checkAccountToken(tx, token, purpose);
  // The used_at guard makes two simultaneous uses one success and one TOKEN_USED.
  const [used] = await tx
    .update(accountTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(accountTokens.id, row.id), isNull(accountTokens.usedAt)))
    .returning();
  if (!used) throw REFUSALS.used();
  return used;
}

/** Retires the account's other open links of a purpose (a newer link, or the change they were for, replaces them). */
export async function retireAccountTokens(tx: Db, accountId: string, purpose: TokenPurpose): Promise<void> {
  await tx
    .update(accountTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(accountTokens.accountId, accountId), eq(accountTokens.purpose, purpose), isNull(accountTokens.usedAt)));
}

/** The hourly sweep: links that expired before `before` (used or not) mean nothing any more. */
export async function deleteStaleAccountTokens(db: Db, before: Date): Promise<number> {
  const rows = await db.delete(accountTokens).where(lt(accountTokens.expiresAt, before)).returning({ id: accountTokens.id });
  return rows.length;
}
