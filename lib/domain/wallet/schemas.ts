import { z } from "zod";
import { decimalInt } from "@/lib/foundation/http/decimal-int";
import { pageQuery } from "@/lib/foundation/http/pagination";
import { ledgerTypeEnum } from "@/lib/foundation/db/schema";

export const usageQuery = z.strictObject({ days: decimalInt(1, 366).default(30) });

/** GET /v1/wallet. */
export const walletBalanceResponse = z.object({ balance: z.number().int().min(0) });

/** One ledger row (toLedgerEntry). */
export const ledgerEntryResponse = z.object({
  id: z.string(),
  type: z.enum(ledgerTypeEnum.enumValues),
  amount: z.number().int(),
  balance_after: z.number().int(),
  operation: z.string().nullable(),
  reference: z.string().nullable(),
  note: z.string().nullable(),
  refund_of: z.string().nullable(),
  spent_by: z.object({ type: z.enum(["member", "api_key"]), id: z.string(), name: z.string() }).nullable(),
  created_at: z.iso.datetime({ offset: true }),
});

/** GET /v1/wallet/usage: one entry per UTC day, oldest first. */
export const usageResponse = z.object({ data: z.array(z.object({ date: z.iso.date(), spent: z.number().int(), granted: z.number().int().min(0) })) });

/** GET /v1/wallet/transactions: `spent_by` keeps the debits one member (login id) or API key made. */
export const transactionsQuery = pageQuery.extend({ spent_by: z.string().min(1).max(64).optional() });
