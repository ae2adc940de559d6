import { z } from "zod";
import { decimalInt } from "@/lib/http/decimal-int";

export const usageQuery = z.strictObject({ days: decimalInt(1, 366).default(30) });

/** GET /v1/wallet. */
export const walletBalanceResponse = z.object({ balance: z.number().int().min(0) });
