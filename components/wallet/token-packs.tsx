"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { QueryError } from "@/components/ui/query-error";
import { studioApi, unwrap } from "@/lib/client/typed-api";
import { errorMessage } from "@/components/agencies/api-errors";
import { formatTokens } from "./format";

export const money = (minor: number, currency: string) => new Intl.NumberFormat("en-US", { style: "currency", currency: currency.toUpperCase() }).format(minor / 100);

/** The packs for sale (GET /v1/billing/packs); Buy opens Stripe Checkout. */
export function TokenPacks() {
  const packs = useQuery({ queryKey: ["billing", "packs"], queryFn: async () => unwrap(await studioApi.GET("/v1/billing/packs")) });
  const [saveCard, setSaveCard] = useState(false);
  const buy = useMutation({
    mutationFn: async (pack: string) => unwrap(await studioApi.POST("/v1/billing/checkout", { body: { pack, ...(saveCard ? { save_card: true } : {}) } })),
    // Stripe's page, then back to /wallet/top-up?session=…
    onSuccess: (res) => window.location.assign(res.checkout_url),
  });
  if (packs.error) return <QueryError title="Could not load the token packs." error={packs.error} onRetry={() => void packs.refetch()} />;
  if (!packs.data) return <p className="text-sm text-slate-500">Loading packs…</p>;
  const cards = packs.data.card_payments;
  return (
    <div className="space-y-3">
      {!cards ? (
        <p role="note" className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          Card payment is not set up on this server, so tokens cannot be bought here. Ask the people who run this studio server to add tokens to your account.
        </p>
      ) : null}
      <ul className="grid gap-3 sm:grid-cols-3">
        {packs.data.packs.map((p) => (
          <li key={p.id} className="flex flex-col rounded-lg border border-slate-200 p-4">
            <p className="text-lg font-semibold text-slate-900">{formatTokens(p.tokens)} tokens</p>
            <p className="mt-1 text-2xl font-semibold tabular-nums text-slate-900">{money(p.price, p.currency)}</p>
            <p className="text-sm text-slate-500">{money(p.price_per_1000_tokens, p.currency)} per 1,000 tokens</p>
            <Button className="mt-3" disabled={!cards || buy.isPending} onClick={() => buy.mutate(p.id)} aria-label={`Buy ${formatTokens(p.tokens)} tokens`}>
              {buy.isPending && buy.variables === p.id ? "Opening checkout…" : "Buy"}
            </Button>
          </li>
        ))}
      </ul>
      {cards ? (
        <label className="flex items-start gap-2 text-sm text-slate-700">
          <input type="checkbox" className="mt-0.5" checked={saveCard} onChange={(e) => setSaveCard(e.target.checked)} />
          <span>Save this card for auto top-up (Stripe keeps it; you choose below when it may be charged)</span>
        </label>
      ) : null}
      {buy.error ? <p className="text-sm text-red-700">{errorMessage(buy.error)}</p> : null}
      {cards ? <p className="text-xs text-slate-500">Paid by card on Stripe&apos;s secure page. Tokens are added as soon as Stripe confirms the payment.</p> : null}
    </div>
  );
}
