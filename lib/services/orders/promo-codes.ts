import { and, asc, eq, gt, isNull, lt, or, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/lib/foundation/db/types";
import { promoCodes } from "@/lib/foundation/db/schema";
import { isUniqueViolation } from "@/lib/foundation/db/errors";
import { newId } from "@/lib/foundation/ids";
import { ApiError, notFound } from "@/lib/foundation/http/api-error";
import { requireSheet, invalidField } from "./price-sheets";
import type { createPromoBody } from "./schemas";

type PromoRow = typeof promoCodes.$inferSelect;

export function toPublicPromo(row: PromoRow) {
  return {
    id: row.id,
    code: row.code,
    kind: row.kind as "percent" | "amount",
    value: row.value,
    expires_at: row.expiresAt?.toISOString() ?? null,
    max_uses: row.maxUses,
    uses: row.uses,
    created_at: row.createdAt.toISOString(),
  };
}

export async function listPromos(db: Db, accountId: string, sheetId: string) {
  await requireSheet(db, accountId, sheetId);
  const rows = await db.select().from(promoCodes).where(and(eq(promoCodes.priceSheetId, sheetId), eq(promoCodes.accountId, accountId))).orderBy(asc(promoCodes.createdAt));
  return { data: rows.map(toPublicPromo) };
}

export async function createPromo(db: Db, accountId: string, sheetId: string, input: z.output<typeof createPromoBody>) {
  await requireSheet(db, accountId, sheetId);
  try {
    const [row] = await db
      .insert(promoCodes)
      .values({ id: newId("promo"), accountId, priceSheetId: sheetId, code: input.code, kind: input.kind, value: input.value, expiresAt: input.expires_at ? new Date(input.expires_at) : null, maxUses: input.max_uses })
      .returning();
    return toPublicPromo(row!);
  } catch (err) {
    if (isUniqueViolation(err)) throw new ApiError(409, "PROMO_CODE_TAKEN", `This sheet already has the code ${input.code}.`, { field: "code" });
    throw err;
  }
}

export async function deletePromo(db: Db, accountId: string, sheetId: string, promoId: string) {
  const rows = await db.delete(promoCodes).where(and(eq(promoCodes.id, promoId), eq(promoCodes.priceSheetId, sheetId), eq(promoCodes.accountId, accountId))).returning({ id: promoCodes.id });
  if (!rows.length) throw notFound("Promo code");
  return { deleted: true as const };
}

/**
 * Takes one use of a code in the checkout's transaction: the conditional update
 * counts it only while it is unexpired and under its limit, so concurrent
 * checkouts can never use it more often than allowed. Any refusal names the field.
 */
export async function takePromo(tx: Db, sheetId: string, code: string): Promise<PromoRow> {
  const now = new Date();
  const [row] = await tx
    .update(promoCodes)
    .set({ uses: sql`${promoCodes.uses} + 1` })
    .where(
      and(
        eq(promoCodes.priceSheetId, sheetId),
        eq(promoCodes.code, code),
        or(isNull(promoCodes.expiresAt), gt(promoCodes.expiresAt, now)),
        or(isNull(promoCodes.maxUses), lt(promoCodes.uses, promoCodes.maxUses)),
      ),
    )
    .returning();
  if (!row) throw invalidField("promo_code", "This promo code is not valid (unknown, expired, or used up).");
  return row;
}
