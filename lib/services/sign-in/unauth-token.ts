// The public unauth token: a credential of the core API (issued, rotated and
// verified here, beside the other credentials; with-core reads it).
import crypto from "node:crypto";
import { z } from "zod";
import { eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { accounts, coreUnauthTokens } from "@/lib/foundation/db/schema";
import type { AccountRow } from "@/lib/domain/identity/public-account";
import { recordAudit } from "@/lib/domain/audit/record-audit";

export const UNAUTH_TOKEN_PREFIX = "psu_";

/** The response of GET /v1/account/unauth-token and of its rotation. */
export const unauthTokenResponse = z.object({ token: z.string().startsWith(UNAUTH_TOKEN_PREFIX) });

function generateUnauthToken(): string {
  return `${UNAUTH_TOKEN_PREFIX}${crypto.randomBytes(24).toString("base64url")}`;
}

/** The account's token, created on first use (accounts predate this feature). */
export async function getUnauthToken(db: Db, accountId: string): Promise<string> {
  const [existing] = await db.select({ token: coreUnauthTokens.token }).from(coreUnauthTokens).where(eq(coreUnauthTokens.accountId, accountId));
  if (existing) return existing.token;
  // Two first calls at once: one insert wins, both read the winner.
  await db.insert(coreUnauthTokens).values({ accountId, token: generateUnauthToken() }).onConflictDoNothing({ target: coreUnauthTokens.accountId });
  const [row] = await db.select({ token: coreUnauthTokens.token }).from(coreUnauthTokens).where(eq(coreUnauthTokens.accountId, accountId));
  return row!.token;
}

/**
 * A new token replaces the old one in the same row: the old one stops working with
 * this statement. It breaks every storefront using the old one, so the audit log
 * says who did it (in the same transaction).
 */
export async function rotateUnauthToken(db: Db, accountId: string): Promise<string> {
  const token = generateUnauthToken();
  await db.transaction(async (tx) => {
    await tx
      .insert(coreUnauthTokens)
      .values({ accountId, token })
      .onConflictDoUpdate({ target: coreUnauthTokens.accountId, set: { token, createdAt: sql`now()` } });
    await recordAudit(tx, { accountId, action: "unauth_token.rotated", target: accountId });
  });
  return token;
}

/** The account an unauth token belongs to, or undefined (unknown or rotated away). */
export async function accountForUnauthToken(db: Db, token: string): Promise<AccountRow | undefined> {
  if (!token.startsWith(UNAUTH_TOKEN_PREFIX) || token.length > 100) return undefined;
  const [row] = await db
    .select({ account: accounts })
    .from(coreUnauthTokens)
    .innerJoin(accounts, eq(accounts.id, coreUnauthTokens.accountId))
    .where(eq(coreUnauthTokens.token, token));
  return row?.account;
}
