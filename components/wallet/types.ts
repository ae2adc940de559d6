import type { ApiResponse } from "@/lib/client/typed-api";

/** The wallet's shapes as the studio pages read them, derived from the /v1 routes that return them. */
export type WalletTransaction = ApiResponse<"/v1/wallet/transactions", "get">["data"][number];
export type TransactionType = WalletTransaction["type"];
export type UsageDay = ApiResponse<"/v1/wallet/usage", "get">["data"][number];
