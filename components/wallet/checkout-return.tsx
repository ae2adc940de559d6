"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { studioApi, unwrap } from "@/lib/client/typed-api";
import { QueryError } from "@/components/ui/query-error";
import { formatTokens } from "./format";
import { walletBalanceKey } from "./use-wallet-balance";

/**
 * Back from Stripe Checkout (?session=cs_…): polls the checkout until the webhook
 * has credited it, then shows the new balance without a reload.
 */
export function CheckoutReturn({ sessionId }: { sessionId: string }) {
  const queryClient = useQueryClient();
  const checkout = useQuery({
    queryKey: ["billing", "checkout", sessionId],
    queryFn: async () => unwrap(await studioApi.GET("/v1/billing/checkout/{sessionId}", { params: { path: { sessionId } } })),
    refetchInterval: (q) => (q.state.data?.status === "open" || q.state.data?.status === "awaiting_payment" ? 1500 : false),
  });
  const paid = checkout.data?.status === "paid";
  useEffect(() => {
    if (paid) void queryClient.invalidateQueries({ queryKey: walletBalanceKey });
  }, [paid, queryClient]);

  if (checkout.error) return <QueryError title="Could not load this payment." error={checkout.error} onRetry={() => void checkout.refetch()} />;
  const c = checkout.data;
  const box = "rounded-md border px-4 py-3 text-sm";
  if (!c || c.status === "open")
    return (
      <p role="status" className={`${box} border-slate-200 bg-slate-50 text-slate-700`}>
        Confirming your payment with Stripe…
      </p>
    );
  if (c.status === "paid")
    return (
      <p role="status" className={`${box} border-emerald-200 bg-emerald-50 text-emerald-900`}>
        Payment received: {formatTokens(c.tokens)} tokens added. Your balance is now <strong>{formatTokens(c.balance)}</strong> tokens.
      </p>
    );
  if (c.status === "awaiting_payment")
    return (
      <p role="status" className={`${box} border-amber-200 bg-amber-50 text-amber-900`}>
        Waiting for the payment: your bank has not confirmed it yet. The {formatTokens(c.tokens)} tokens are added as soon as it does; you can leave this page.
      </p>
    );
  return (
    <p role="alert" className={`${box} border-red-200 bg-red-50 text-red-900`}>
      {c.status === "failed" ? "The payment failed, so no tokens were added. Try again with another payment method." : "This checkout expired before it was paid. No money was taken."}
    </p>
  );
}
