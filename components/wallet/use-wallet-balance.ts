"use client";

import { useQuery } from "@tanstack/react-query";
import { studioApi, unwrap } from "@/lib/client/typed-api";

export const walletBalanceKey = ["wallet", "balance"] as const;

/** GET /v1/wallet, shared by the dashboard and the top-up page. */
export function useWalletBalance() {
  return useQuery({ queryKey: walletBalanceKey, queryFn: async () => unwrap(await studioApi.GET("/v1/wallet")) });
}
