"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { QueryError } from "@/components/ui/query-error";
import { studioApi, unwrap } from "@/lib/client/typed-api";
import { useActionKey } from "@/lib/client/idempotency-key";

/**
 * The studio's own Stripe account, where parents pay for their orders: connect it,
 * finish onboarding on Stripe's page, and see whether it can take payments yet
 * (Stripe tells the server through account.updated; the page asks again on focus).
 */
export function PaymentsCard() {
  const { data, error, isPending, refetch } = useQuery({ queryKey: ["payments", "connect"], queryFn: async () => unwrap(await studioApi.GET("/v1/payments/connect")), refetchOnWindowFocus: true });
  const key = useActionKey();
  const connect = useMutation({
    mutationFn: () => key.run(async (idempotencyKey) => unwrap(await studioApi.POST("/v1/payments/connect", { body: { type: "express" }, headers: { "Idempotency-Key": idempotencyKey } }))),
    onSuccess: (res) => {
      if (res.onboarding_url) window.location.assign(res.onboarding_url);
    },
  });
  const state = !data ? "" : !data.connected ? "Not connected" : data.charges_enabled ? "Taking payments" : data.details_submitted ? "Waiting for Stripe to enable payments" : "Onboarding not finished";
  return (
    <Card title="Payments from parents (Stripe)">
      <p className="mb-4 max-w-3xl text-sm text-slate-600">
        Parents pay for gallery orders on your own Stripe account: the money goes to you, less Stripe&apos;s fees and the platform&apos;s fee.
      </p>
      {isPending ? (
        <div role="status" className="h-10 animate-pulse rounded bg-slate-100" />
      ) : error || !data ? (
        <QueryError title="Could not load the payment account." error={error} onRetry={() => void refetch()} />
      ) : (
        <div className="flex flex-wrap items-center gap-3">
          <span data-testid="payments-status" className={`rounded-full px-3 py-1 text-sm ${data.charges_enabled ? "bg-emerald-50 text-emerald-800" : "bg-amber-50 text-amber-800"}`}>
            {state}
          </span>
          {data.stripe_account_id ? <code className="font-mono text-xs text-slate-500">{data.stripe_account_id}</code> : null}
          {!data.charges_enabled ? (
            <Button type="button" disabled={connect.isPending} onClick={() => connect.mutate()}>
              {connect.isPending ? "Opening Stripe…" : data.connected ? "Continue onboarding" : "Connect Stripe"}
            </Button>
          ) : null}
          {connect.error ? <QueryError title="Stripe could not be reached." error={connect.error} /> : null}
        </div>
      )}
    </Card>
  );
}
