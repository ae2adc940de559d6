import { AsyncLocalStorage } from "node:async_hooks";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { idempotencyKeys } from "@/lib/foundation/db/schema";
import { ApiError } from "@/lib/foundation/http/api-error";

/** The Idempotency-Key a request holds while its handler runs. */
export type IdempotencyClaim = {
  id: string;
  owner: string;
  /** False once the handler has answered: work it left running (jobs) is not the request's. */
  active: boolean;
  /** A debit was recorded under the key. */
  charged: boolean;
};

// On globalThis so every route bundle of the process shares one store (like request-context).
const holder = globalThis as unknown as { __printStudioIdempotency?: AsyncLocalStorage<IdempotencyClaim> };
const store = (holder.__printStudioIdempotency ??= new AsyncLocalStorage<IdempotencyClaim>());

export function runWithIdempotencyClaim<T>(claim: IdempotencyClaim, fn: () => Promise<T>): Promise<T> {
  return store.run(claim, fn);
}

/**
 * Called by debitTokens inside the debit's transaction: writes the debit's id on
 * the key's record in that same transaction, so "this key has charged" commits
 * with the charge or not at all. If another attempt has taken the key over (our
 * lease lapsed), the update finds nothing and the debit is rolled back.
 * Outside an idempotent request it does nothing.
 */
export async function recordIdempotentDebit(tx: Db, debitId: string): Promise<void> {
  const claim = store.getStore();
  if (!claim?.active) return;
  const rows = await tx
    .update(idempotencyKeys)
    .set({ debitId: sql`coalesce(${idempotencyKeys.debitId}, ${debitId})` })
    .where(and(eq(idempotencyKeys.id, claim.id), eq(idempotencyKeys.owner, claim.owner), eq(idempotencyKeys.status, "running")))
    .returning({ id: idempotencyKeys.id });
  if (rows.length === 0) {
    throw new ApiError(409, "IDEMPOTENCY_KEY_IN_USE", "This request's Idempotency-Key was taken over by a retry while it ran; nothing was charged by this attempt.");
  }
  claim.charged = true;
}
