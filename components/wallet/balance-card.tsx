"use client";

import { BuyTokensLink } from "./buy-tokens-link";
import { Card } from "@/components/ui/card";
import { formatTokens } from "./format";
import { QueryError } from "@/components/ui/query-error";
import { useWalletBalance } from "./use-wallet-balance";

/** The token balance; `showBuyLink` adds the "Buy tokens" link to /wallet/top-up. */
export function BalanceCard({ showBuyLink = true, className = "" }: { showBuyLink?: boolean; className?: string }) {
  const { data, error, isPending, refetch } = useWalletBalance();

  return (
    <Card className={className}>
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h2 className="text-sm font-medium text-slate-500">
            Token balance
          </h2>
          {isPending ? (
            <div role="status" className="mt-2 h-10 w-32 animate-pulse rounded bg-slate-100">
              <span className="sr-only">Loading balance…</span>
            </div>
          ) : error ? (
            <div className="mt-2">
              <QueryError title="Could not load the balance." error={error} onRetry={() => void refetch()} />
            </div>
          ) : (
            <p className="mt-1 flex items-baseline gap-2">
              <span data-testid="wallet-balance" data-value={data.balance} className="text-4xl font-semibold tabular-nums text-slate-900">
                {formatTokens(data.balance)}
              </span>
              <span className="text-sm text-slate-500">tokens</span>
            </p>
          )}
        </div>
        {showBuyLink ? <BuyTokensLink className="rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700" /> : null}
      </div>
    </Card>
  );
}
