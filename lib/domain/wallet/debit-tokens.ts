import { and, eq, gte, isNotNull, notExists, sql } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { accounts, wallets, walletTransactions } from "@/lib/foundation/db/schema";
import { newId } from "@/lib/foundation/ids";
import { recordIdempotentDebit } from "@/lib/foundation/http/idempotency-context";
import { crossesLowBalance } from "@/lib/domain/webhooks/wallet-low";
import { emitWebhookEvent } from "@/lib/domain/webhooks/emit";
import { insufficientTokens } from "./insufficient-tokens";
import { assertNotOnHold } from "./account-on-hold";
import { claimAutoTopUp } from "./auto-top-up-claim";
import { currentActor } from "@/lib/foundation/http/request-context";

/**
 * Takes `amount` tokens for an operation. Pass the transaction that also writes
 * the record being paid for, so both commit or neither does. The conditional
 * UPDATE is atomic: concurrent debits can never take the balance below zero.
 * Throws the 402 INSUFFICIENT_TOKENS error when the balance is short, and 402
 * ACCOUNT_ON_HOLD while a refunded or disputed payment's spent tokens are unsettled.
 * Inside a request with an Idempotency-Key, the key's record notes the debit in
 * this same transaction (lib/foundation/http/idempotency-context.ts).
 */
export async function debitTokens(
  db: Db,
  input: { accountId: string; amount: number; operation: string; reference: string },
) {
  if (!Number.isInteger(input.amount) || input.amount <= 0) throw new Error("debit amount must be a positive integer");
  return db.transaction(async (tx) => {
    // The hold is part of the one conditional UPDATE (no extra round trip on every debit); why it matched nothing is asked only then.
    const held = tx.select({ one: sql`1` }).from(accounts).where(and(eq(accounts.id, input.accountId), isNotNull(accounts.holdReason)));
    const [wallet] = await tx
      .update(wallets)
      .set({ balance: sql`${wallets.balance} - ${input.amount}`, updatedAt: new Date() })
      .where(and(eq(wallets.accountId, input.accountId), gte(wallets.balance, input.amount), notExists(held)))
      .returning({ balance: wallets.balance });
    if (!wallet) {
      await assertNotOnHold(tx, input.accountId);
      const [current] = await tx.select({ balance: wallets.balance }).from(wallets).where(eq(wallets.accountId, input.accountId));
      throw insufficientTokens(current?.balance ?? 0, input.amount);
    }
    const [row] = await tx
      .insert(walletTransactions)
      .values({
        id: newId("wtx"),
        accountId: input.accountId,
        type: "debit",
        amount: -input.amount,
        balanceAfter: wallet.balance,
        operation: input.operation,
        reference: input.reference,
        // Who spent it: the member signed in, or the API key (its member is on the key).
        ...actorColumns(),
      })
      .returning();
    // Under an Idempotency-Key: the key records this charge in the same transaction.
    await recordIdempotentDebit(tx, row!.id);
    if (crossesLowBalance(wallet.balance + input.amount, wallet.balance)) await emitWebhookEvent(tx, { accountId: input.accountId, type: "wallet.low", data: { balance: wallet.balance } });
    await claimAutoTopUp(tx, input.accountId, wallet.balance);
    return row!;
  });
}

function actorColumns(): { actorUserId?: string; apiKeyId?: string } {
  const actor = currentActor();
  if (actor?.type === "member") return { actorUserId: actor.userId };
  if (actor?.type === "api_key") return { apiKeyId: actor.apiKeyId };
  return {};
}
