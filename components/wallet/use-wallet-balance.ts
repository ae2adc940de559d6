"use client";

import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "@/lib/client/api-fetch";

export const walletBalanceKey = ["wallet", "balance"] as const;

/** GET /v1/wallet, shared by the dashboard and the top-up page. */
export function useWalletBalance() {
  return useQuery({ queryKey: walletBalanceKey, queryFn: () => apiFetch<{ balance: number }>("/v1/wallet") });
}
