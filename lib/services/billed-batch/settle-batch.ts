import type { Db } from "@/lib/foundation/db/types";
import { refundDebit } from "@/lib/domain/wallet/refund-debit";

/** What a billed batch row carries (lib/foundation/db/schema/billed-batch.ts). */
export type BilledBatch = {
  accountId: string;
  totalFiles: number;
  pricePerFile: number;
  walletTransactionId: string;
  tokensRefunded: number;
  refundTransactionId: string | null;
};

/**
 * The end of a batch billed by one debit (Face Crop tasks, match jobs), once its
 * pending files are failed and its failed charged files counted: those files are
 * refunded together by one refund row referencing the batch's debit (the ledger
 * allows one refund per debit, which is what makes a retried or racing finish
 * refund at most once). Returns the batch's new column values; the caller writes
 * them to its own table, in the same transaction.
 */
export async function settleBilledBatch(
  tx: Db,
  batch: BilledBatch,
  input: { outcome: "completed" | "failed"; message?: string; failedFiles: number; refundReason: string; genericFailure: string },
) {
  const amount = input.failedFiles * batch.pricePerFile;
  const refund: { refunded: boolean; transactionId?: string } =
    amount > 0 ? await refundDebit(tx, { accountId: batch.accountId, debitId: batch.walletTransactionId, amount, reason: input.refundReason }) : { refunded: false };
  return {
    status: input.outcome,
    processedFiles: batch.totalFiles,
    tokensRefunded: refund.refunded ? amount : batch.tokensRefunded,
    refundTransactionId: refund.transactionId ?? batch.refundTransactionId,
    errorMessage: input.outcome === "failed" ? (input.message ?? input.genericFailure) : null,
    completedAt: new Date(),
  };
}
