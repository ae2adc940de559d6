import crypto from "node:crypto";
import { and, count, eq, isNull } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { recoveryCodes } from "@/lib/foundation/db/schema";
import { newId } from "@/lib/foundation/ids";
import { derivedKey } from "@/lib/foundation/secret";

export const RECOVERY_CODE_COUNT = 10;
// No 0/O, 1/I/L: the codes are often written down and typed back from paper.
const ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";

/** `XXXXX-XXXXX`: 10 characters of a 31-letter alphabet, ~49 bits each. */
function newCode(): string {
  const chars = Array.from(crypto.randomBytes(10), (b) => ALPHABET[b % ALPHABET.length]).join("");
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

/** What the person typed, as stored: case, spaces and the dash do not matter. */
export function normaliseRecoveryCode(input: string): string | null {
  const plain = input.toUpperCase().replace(/[\s-]/g, "");
  return /^[0-9A-Z]{10}$/.test(plain) ? `${plain.slice(0, 5)}-${plain.slice(5)}` : null;
}

// Keyed hash: the codes are random enough that a slow hash adds nothing, and the
// key keeps a copy of the table alone from being checked against guesses.
const hashCode = (code: string) => crypto.createHmac("sha256", derivedKey("recovery-code")).update(code).digest("hex");

/** A fresh set (the old one stops working); the plain codes are returned once, to be shown once. */
export async function replaceRecoveryCodes(tx: Db, userId: string): Promise<string[]> {
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
  await tx.insert(recoveryCodes).values(codes.map((code) => ({ id: newId("rcv"), userId, codeHash: hashCode(code) })));
  return codes;
}

/** Uses one code: true once per code, false for a used, unknown or another login's code. */
export async function spendRecoveryCode(db: Db, userId: string, typed: string): Promise<boolean> {
  const code = normaliseRecoveryCode(typed);
  if (!code) return false;
  const used = await db
    .update(recoveryCodes)
    .set({ usedAt: new Date() })
    .where(and(eq(recoveryCodes.codeHash, hashCode(code)), eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)))
    .returning({ id: recoveryCodes.id });
  return used.length === 1;
}

export async function recoveryCodesLeft(db: Db, userId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(recoveryCodes).where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return row?.n ?? 0;
}

export async function deleteRecoveryCodes(tx: Db, userId: string): Promise<void> {
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
}
