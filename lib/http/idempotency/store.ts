import crypto from "node:crypto";
import { and, eq, isNull, lt } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { idempotencyKeys, walletTransactions } from "@/lib/foundation/db/schema";
import { ApiError } from "@/lib/foundation/http/api-error";
import { newId } from "@/lib/foundation/ids";

/** A key answers the same for 24 hours after its first use. */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;
/**
 * How long a request may hold its key before another attempt may take it over
 * (it died without answering). Longer than any synchronous /v1 request.
 */
export const IDEMPOTENCY_LEASE_MS = 10 * 60_000;

type Row = typeof idempotencyKeys.$inferSelect;
export type Claimed = { kind: "owner"; id: string; owner: string } | { kind: "replay"; row: Row };
export type ClaimInput = { scope: string; key: string; fingerprint: string; method: string; path: string };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Takes the key for this request, or says how to answer without running it:
 * - not seen (or expired): this request owns it;
 * - seen with another fingerprint: 409 IDEMPOTENCY_KEY_REUSED;
 * - completed: replay its answer;
 * - running: wait for it (up to `waitMs`), then replay; still running after that: 409 IDEMPOTENCY_REQUEST_IN_PROGRESS;
 * - running but its lease lapsed (the process died): taken over when it had not
 *   charged yet; when it had, the answer is lost and the key answers 409
 *   IDEMPOTENT_REQUEST_INTERRUPTED naming the charge (never a second charge).
 */
export async function claimIdempotencyKey(db: Db, input: ClaimInput, waitMs: number, requestId: string): Promise<Claimed> {
  const waitUntil = Date.now() + waitMs;
  for (let pause = 25; ; pause = Math.min(pause * 2, 250)) {
    const now = new Date();
    // A read first: a replay or a duplicate writes nothing.
    const [row] = await db.select().from(idempotencyKeys).where(and(eq(idempotencyKeys.scope, input.scope), eq(idempotencyKeys.key, input.key)));
    if (!row || row.expiresAt.getTime() < now.getTime()) {
      // Not seen, or seen more than 24 hours ago: one statement claims it (a concurrent claim makes it return nothing).
      const owner = crypto.randomUUID();
      const fresh = {
        id: newId("idk"),
        ...input,
        status: "running" as const,
        owner,
        lockedUntil: new Date(now.getTime() + IDEMPOTENCY_LEASE_MS),
        debitId: null,
        responseStatus: null,
        responseHeaders: null,
        responseBody: null,
        createdAt: now,
        completedAt: null,
        expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
      };
      const [claimed] = await db
        .insert(idempotencyKeys)
        .values(fresh)
        .onConflictDoUpdate({ target: [idempotencyKeys.scope, idempotencyKeys.key], set: fresh, setWhere: lt(idempotencyKeys.expiresAt, now) })
        .returning({ id: idempotencyKeys.id });
      if (claimed) return { kind: "owner", id: claimed.id, owner };
      continue; // another request claimed it first: look again
    }
    if (row.fingerprint !== input.fingerprint) throw keyReused(row);
    if (row.status === "completed") return { kind: "replay", row };
    if (row.lockedUntil.getTime() < now.getTime()) {
      if (!row.debitId) {
        const owner = crypto.randomUUID();
        const [taken] = await db
          .update(idempotencyKeys)
          .set({ owner, lockedUntil: new Date(now.getTime() + IDEMPOTENCY_LEASE_MS) })
          .where(and(eq(idempotencyKeys.id, row.id), eq(idempotencyKeys.owner, row.owner), eq(idempotencyKeys.status, "running"), isNull(idempotencyKeys.debitId)))
          .returning({ id: idempotencyKeys.id });
        if (taken) return { kind: "owner", id: taken.id, owner };
        continue;
      }
      return { kind: "replay", row: await storeInterrupted(db, row, requestId) };
    }
    if (Date.now() + pause > waitUntil) throw inProgress();
    await sleep(pause);
  }
}

/** Stores the answer of the request that owns the key; later requests replay it. */
export async function completeIdempotencyKey(db: Db, claim: { id: string; owner: string }, answer: { status: number; headers: Record<string, string>; body: Buffer }): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({ status: "completed", responseStatus: answer.status, responseHeaders: answer.headers, responseBody: answer.body.toString("base64"), completedAt: new Date() })
    .where(and(eq(idempotencyKeys.id, claim.id), eq(idempotencyKeys.owner, claim.owner)));
}

/** Frees the key after a failure that charged nothing, so a retry runs again. */
export async function releaseIdempotencyKey(db: Db, claim: { id: string; owner: string }): Promise<void> {
  await db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.id, claim.id), eq(idempotencyKeys.owner, claim.owner), isNull(idempotencyKeys.debitId)));
}

/** The retention sweep: keys past their 24 hours. */
export async function deleteExpiredIdempotencyKeys(db: Db, now = new Date()): Promise<number> {
  const rows = await db.delete(idempotencyKeys).where(lt(idempotencyKeys.expiresAt, now)).returning({ id: idempotencyKeys.id });
  return rows.length;
}

function keyReused(row: Row): ApiError {
  return new ApiError(
    409,
    "IDEMPOTENCY_KEY_REUSED",
    `This Idempotency-Key was already used with a different request (${row.method} ${row.path} with another body) in the last 24 hours: use a new key for a new request.`,
    { field: "Idempotency-Key", first_used_at: row.createdAt.toISOString() },
  );
}

function inProgress(): ApiError {
  return new ApiError(
    409,
    "IDEMPOTENCY_REQUEST_IN_PROGRESS",
    "A request with this Idempotency-Key is still being processed: retry in a few seconds to get its answer.",
    { field: "Idempotency-Key" },
    undefined,
    { "Retry-After": "5" },
  );
}

/**
 * The first attempt charged, then died before answering. Its work is committed
 * (the debit commits with the record it pays for); the key now answers with a
 * 409 naming the charge and what it paid for, stored like any answer.
 */
async function storeInterrupted(db: Db, row: Row, requestId: string): Promise<Row> {
  const [debit] = await db.select().from(walletTransactions).where(eq(walletTransactions.id, row.debitId!));
  const body = {
    error: "IDEMPOTENT_REQUEST_INTERRUPTED",
    message: `The first request with this Idempotency-Key was charged (${-(debit?.amount ?? 0)} tokens for ${debit?.operation ?? "the operation"} ${debit?.reference ?? ""}) but stopped before answering. It is not run or charged again: look the result up by its reference.`.replace(/ {2,}/g, " "),
    details: { field: "Idempotency-Key", wallet_transaction_id: row.debitId, operation: debit?.operation ?? null, reference: debit?.reference ?? null },
    request_id: requestId,
  };
  const answer = { status: 409, headers: { "content-type": "application/json" }, body: Buffer.from(JSON.stringify(body)) };
  await completeIdempotencyKey(db, row, answer);
  const [stored] = await db.select().from(idempotencyKeys).where(eq(idempotencyKeys.id, row.id));
  return stored!;
}
