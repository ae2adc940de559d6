"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { Button } from "@/components/ui/button";
import { studioApi, unwrap } from "@/lib/client/typed-api";
import { errorMessage } from "@/components/agencies/api-errors";
import { formatTokens } from "./format";
import { money } from "./token-packs";

/** Upgrade to Premium (Stripe Checkout, monthly) or, on Premium, Stripe's portal to manage or cancel it. */
export function PremiumActions({ plan }: { plan?: string }) {
  const offer = useQuery({ queryKey: ["billing", "packs"], queryFn: async () => unwrap(await studioApi.GET("/v1/billing/packs")) });
  const go = useMutation({
    mutationFn: async (): Promise<string> =>
      plan === "premium"
        ? unwrap(await studioApi.POST("/v1/billing/portal", { body: {} })).portal_url
        : unwrap(await studioApi.POST("/v1/billing/checkout", { body: { plan: "premium" } })).checkout_url,
    onSuccess: (url) => window.location.assign(url),
  });
  if (!offer.data?.card_payments) return null;
  const p = offer.data.premium;
  return (
    <div className="mt-4 flex flex-wrap items-center gap-3">
      <Button onClick={() => go.mutate()} disabled={go.isPending}>
        {plan === "premium" ? "Manage billing" : `Upgrade to Premium: ${money(p.monthly_price, p.currency)} a month`}
      </Button>
      {plan !== "premium" && p.monthly_tokens > 0 ? <span className="text-sm text-slate-600">{formatTokens(p.monthly_tokens)} tokens included each paid month. Cancel any time.</span> : null}
      {plan === "premium" ? <span className="text-sm text-slate-600">Cards, invoices and cancelling, on Stripe&apos;s page.</span> : null}
      {go.error ? <span className="text-sm text-red-700">{errorMessage(go.error)}</span> : null}
    </div>
  );
}
