import { Card } from "@/components/ui/card";
import { BalanceCard } from "./balance-card";
import { PlansComparison } from "./plans-comparison";
import { TokenCostsTable } from "./token-costs-table";

const code = "rounded bg-slate-100 px-1 py-0.5 font-mono text-xs text-slate-800";

/** /wallet/top-up: how tokens work, what things cost, the plans and how to get more. */
export function TopUpOverview({ plan }: { plan?: string }) {
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">Buy tokens</h1>
        <p className="mt-1 max-w-2xl text-sm text-slate-600">Tokens pay for operations in the studio and through the API, at the same prices.</p>
      </div>

      <div className="grid gap-6 lg:grid-cols-3">
        <BalanceCard showBuyLink={false} />
        <Card title="How to get tokens" className="lg:col-span-2">
          <div className="space-y-3 text-sm text-slate-700">
            <p role="note" className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-amber-900">
              Online payment is not connected yet, so tokens cannot be bought on this page.
            </p>
            <p>
              Tokens are granted, and plans changed, by the service operator. To top up or move to Premium, <strong>contact your operator or support</strong> with your
              account email and the number of tokens you need.
            </p>
            <p className="text-slate-600">
              Operators: grant tokens with <code className={code}>POST /v1/operator/grants</code> or <code className={code}>npm run cli -- grant</code>.
            </p>
          </div>
        </Card>
      </div>

      <Card title="How tokens work">
        <ul className="list-disc space-y-1.5 pl-5 text-sm text-slate-700">
          <li>Tokens are deducted from your wallet when an operation is accepted, before it runs.</li>
          <li>If the operation fails, its tokens are refunded automatically; the refund appears in your transactions.</li>
          <li>If your balance is too low, the operation is refused and nothing is deducted.</li>
        </ul>
      </Card>

      <Card title="Token costs">
        <TokenCostsTable />
      </Card>

      <Card title="Plans">
        <PlansComparison current={plan} />
      </Card>
    </div>
  );
}
